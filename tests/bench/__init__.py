"""Tests of the benchmark package (the vault generator and the harness mechanics)."""
