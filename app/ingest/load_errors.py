"""What both file loaders (loaders.py, hwp.py) share: the error a user sees and the magic bytes
that tell container formats apart."""

from __future__ import annotations

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""OLE compound file: HWP 5.0, old Word .doc, password-protected Office files."""
ZIP_MAGIC = b"PK\x03\x04"
"""Zip archive: DOCX, HWPX."""


class LoadError(Exception):
    """A file that cannot be read as a document; the message says why, for the user."""
