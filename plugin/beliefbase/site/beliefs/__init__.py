"""Belief pages: the belief index page, one page per belief, their search box."""
