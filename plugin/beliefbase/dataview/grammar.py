# ruff: noqa: E501  (a grammar: one terminal per line, however long)
"""The grammar of Dataview's query language (DQL), for lark's LALR parser.

Keywords are case-insensitive and are not identifiers where they can stand
(``row["where"]`` reads a field named ``where``, as in Dataview).  An identifier
may hold ``-`` (``working-hours``), so subtraction needs spaces: ``end - start``.
``date(2021-04-18)``, ``date(today)`` and ``dur(3 days)`` are literals, lexed
whole; ``date(x)`` and ``dur(x)`` of anything else are function calls.  A lambda
head ``(x, y) =>`` is one token, so ``(x)`` stays a parenthesised expression.
"""

GRAMMAR = r"""
start: query_type from_clause? command*
expr_start: expr

query_type: TABLE without_id? table_columns?       -> table_query
          | LIST without_id? expr?                 -> list_query
          | TASK                                   -> task_query
          | CALENDAR expr                          -> calendar_query

without_id: WITHOUT ID
table_columns: table_column ("," table_column)*
table_column: expr (AS header)?
header: STRING | NAME

from_clause: FROM source

?source: source_and
       | source OR source_and                      -> src_or
?source_and: source_not
           | source_and AND source_not             -> src_and
?source_not: source_atom
           | MINUS source_not                      -> src_not
           | BANG source_not                       -> src_not
?source_atom: TAG                                  -> src_tag
            | STRING                               -> src_path
            | LINK                                 -> src_link
            | OUTGOING "(" LINK ")"                -> src_outgoing
            | "(" source ")"

command: WHERE expr                                -> where
       | SORT sort_key ("," sort_key)*             -> sort
       | GROUP BY expr (AS NAME)?                  -> group_by
       | FLATTEN expr (AS NAME)?                   -> flatten
       | LIMIT expr                                -> limit
sort_key: expr direction?
direction: DIRECTION

?expr: or_expr
     | LAMBDA_HEAD expr                            -> lambda_
?or_expr: and_expr
        | or_expr OR and_expr                      -> binary
?and_expr: cmp_expr
         | and_expr AND cmp_expr                   -> binary
?cmp_expr: add_expr
         | cmp_expr CMP_OP add_expr                -> binary
?add_expr: mul_expr
         | add_expr ADD_OP mul_expr                -> binary
         | add_expr MINUS mul_expr                 -> binary
?mul_expr: unary
         | mul_expr MUL_OP unary                   -> binary
?unary: postfix
      | MINUS unary                                -> unary
      | BANG unary                                 -> unary
?postfix: atom
        | postfix "." NAME                         -> dot
        | postfix "[" expr "]"                     -> index
        | NAME "(" [expr ("," expr)*] ")"          -> call
?atom: NUMBER                                      -> number
     | STRING                                      -> string
     | TRUE                                        -> true
     | FALSE                                       -> false
     | NULL                                        -> null
     | LINK                                        -> link
     | EMBED                                       -> embed
     | DATE_LIT                                    -> date_lit
     | DUR_LIT                                     -> dur_lit
     | NAME                                        -> field
     | "[" [expr ("," expr)*] "]"                  -> list_
     | "{" [pair ("," pair)*] "}"                  -> object_
     | "(" expr ")"
pair: (NAME | STRING) ":" expr

TABLE.5: /table(?![\w-])/i
LIST.5: /list(?![\w-])/i
TASK.5: /task(?![\w-])/i
CALENDAR.5: /calendar(?![\w-])/i
WITHOUT.5: /without(?![\w-])/i
ID.5: /id(?![\w-])/i
AS.5: /as(?![\w-])/i
FROM.5: /from(?![\w-])/i
WHERE.5: /where(?![\w-])/i
SORT.5: /sort(?![\w(-])/i
GROUP.5: /group(?![\w-])/i
BY.5: /by(?![\w-])/i
FLATTEN.5: /flatten(?![\w-])/i
LIMIT.5: /limit(?![\w-])/i
DIRECTION.5: /(ascending|asc|descending|desc)(?![\w-])/i
OUTGOING.5: /outgoing(?=\s*\()/i
AND.5: /and(?![\w-])/i | "&"
OR.5: /or(?![\w-])/i | "|"
TRUE.5: /true(?![\w-])/i
FALSE.5: /false(?![\w-])/i
NULL.5: /null(?![\w-])/i

DATE_LIT.6: /date\(\s*(\d{4}-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?|today|now|tomorrow|yesterday|sow|eow|som|eom|soy|eoy)\s*\)/i
DUR_LIT.6: /dur\(\s*-?\d+(\.\d+)?\s*[a-zA-Z]+(\s*,?\s*-?\d+(\.\d+)?\s*[a-zA-Z]+)*\s*\)/i
LAMBDA_HEAD.6: /\(\s*([^\W\d][\w-]*(\s*,\s*[^\W\d][\w-]*)*)?\s*\)\s*=>/
EMBED.4: /!\[\[[^\[\]\n]*\]\]/
LINK.3: /\[\[[^\[\]\n]*\]\]/
TAG: /#[^\s,()\[\]{}"'#!&|=<>]+/
STRING: /"(?:[^"\\\n]|\\.)*"/
NUMBER: /\d+(\.\d+)?/
NAME: /[^\W\d][\w-]*|[\u2600-\u27BF\U0001F300-\U0001FAFF][\w\u2600-\u27BF\U0001F300-\U0001FAFF\uFE0F-]*/
CMP_OP: "<=" | ">=" | "!=" | "==" | "=" | "<" | ">"
ADD_OP: "+"
MINUS: "-"
BANG: "!"
MUL_OP: "*" | "/" | "%"

%ignore /\s+/
%ignore /(?m:^[ \t]*\/\/[^\n]*)/
"""
