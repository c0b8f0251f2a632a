"""The child of ``page_writer``: a bare interpreter (``python -I -S``, run by its path,
importing nothing but ``os`` and ``struct``) that writes each page it is sent as
``mkdocs.utils.write_file`` would, and answers one byte per page: ``.`` written,
``!`` not.  A fork of the build would do it too, but would keep, page by page, the
old copy of every part of the build's heap the template loop goes on changing (20 MB
at 1,000 notes); this one holds its own few megabytes.

Each page comes as a header (the path's length and the content's, ``!II``), the
path (the file system's encoding) and the content, on standard input; the end of
the input ends it.
"""

from __future__ import annotations

import os
import struct
import sys

TYPE_CHECKING = False  # (typing would cost the child 10 ms to import)
if TYPE_CHECKING:
    from typing import BinaryIO

HEADER = struct.Struct("!II")


def serve(source: BinaryIO, answers: int) -> None:
    while header := source.read(HEADER.size):
        if len(header) < HEADER.size:
            return
        path_size, size = HEADER.unpack(header)
        path = os.fsdecode(source.read(path_size))
        content = source.read(size)
        if len(content) < size:
            return
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(content)
            answer = b"."
        except OSError:
            answer = b"!"
        os.write(answers, answer)


if __name__ == "__main__":
    serve(open(sys.stdin.fileno(), "rb", buffering=1 << 16, closefd=False),  # noqa: SIM115
          sys.stdout.fileno())
