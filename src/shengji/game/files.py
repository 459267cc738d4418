"""The game's text files (rules files, records): bounded reading and atomic writing.

Reading refuses what is not a modest UTF-8 text before any parser sees it: not a
regular file (a folder, a named pipe, a device: refused without waiting), too big,
not UTF-8, a NUL byte, brackets nested or keys dotted too deep (``tomllib`` and ``json``
recurse on nesting, and ``tomllib`` needs memory quadratic in the parts of a dotted
key). Each refusal is a one-line :class:`TextFileError`. Writing goes to a temporary
file in the same folder, flushed to the disk and renamed over the old file, so that a
crash or a kill at any moment leaves either the old file or the new one, never a torn
one.

>>> decode_text(b"players = 4\\n", limit=100)
'players = 4\\n'
>>> decode_text(b"players = \\xff", limit=100)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shengji.game.files.TextFileError: line 1: not UTF-8 text (byte 0xff at offset 10); ...
>>> check_text("a = " + "[" * 40 + "]" * 40, limit=1000)
Traceback (most recent call last):
...
shengji.game.files.TextFileError: line 1: lists or tables nested more than 32 deep
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from pathlib import Path

__all__ = ["MAX_NESTING", "TextFileError", "check_text", "decode_text", "file_kind",
           "longest_name", "read_bytes", "read_text", "write_bytes_atomic",
           "write_text_atomic"]

MAX_NESTING = 32
"""The deepest nesting of lists and tables, and the most parts of a dotted key, that a
text may have (rules and records need 2)."""


class TextFileError(ValueError):
    """A file or text that is not one the game reads (one line, without the file name)."""


def _size(count: int) -> str:
    """A byte count in words: ``1 MiB``, ``12 KiB``, ``300 bytes``."""
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.3g} {unit}"
    return f"{count} bytes"


def _too_big(size: int, limit: int) -> str:
    return f"the file is {size:,} bytes ({_size(size)}), over the limit of {_size(limit)}"


def _line(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


_TOKENS = re.compile(
    r'"""(?:[^\\]|\\.)*?"""'  # multi-line basic string
    r"|'''.*?'''"  # multi-line literal string
    r'|"(?:[^"\\\n]|\\.)*"'  # basic string (JSON's too)
    r"|'[^'\n]*'"  # literal string
    r"|#[^\n]*"  # comment
    r"|[\[\]{}.=,\n]",
    re.DOTALL,
)


def _nesting_problem(text: str) -> str | None:
    """Where ``text`` (TOML or JSON) nests lists and tables, or dots a key, deeper than
    :data:`MAX_NESTING`, in words; ``None`` if it does not. Strings and comments are
    skipped; floats count one dot each."""
    if (text.count("[") + text.count("{") <= MAX_NESTING
            and text.count(".") <= MAX_NESTING):
        return None
    depth = dots = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            dots = 0
            if depth > MAX_NESTING:
                return (f"line {_line(text, match.start())}: lists or tables nested more "
                        f"than {MAX_NESTING} deep")
        elif token in "]}":
            depth = max(0, depth - 1)
        elif token == ".":
            dots += 1
            if dots >= MAX_NESTING:
                return (f"line {_line(text, match.start())}: a key of more than "
                        f"{MAX_NESTING} dotted parts")
        elif token in "=,\n":
            dots = 0
    return None


def check_text(text: str, *, limit: int) -> None:
    """Refuse ``text`` unless it is at most ``limit`` characters, without NUL characters,
    and nested no deeper than :data:`MAX_NESTING` (see the module docstring)."""
    if len(text) > limit:
        raise TextFileError(f"the text is {len(text):,} characters long, over the limit of "
                            f"{_size(limit)}")
    nul = text.find("\0")
    if nul >= 0:
        raise TextFileError(f"line {_line(text, nul)}: a NUL character; is it a binary "
                            f"file?")
    problem = _nesting_problem(text)
    if problem is not None:
        raise TextFileError(problem)


def decode_text(data: bytes, *, limit: int) -> str:
    """The checked text of a file's bytes: at most ``limit`` bytes of UTF-8 (a leading
    byte-order mark is dropped), then :func:`check_text`."""
    if len(data) > limit:
        raise TextFileError(_too_big(len(data), limit))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise TextFileError(f"line {line}: not UTF-8 text (byte 0x{data[error.start]:02x} at "
                            f"offset {error.start}); is it a binary file?") from None
    check_text(text, limit=limit)
    return text


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words: ``a regular file``, ``a folder``,
    ``a named pipe``..."""
    for test, words in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"),
                        (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a regular file"


def _not_regular(mode: int) -> TextFileError:
    return TextFileError(f"that is {file_kind(mode)}, not a regular file")


def read_bytes(path: str | Path, *, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, refused (:class:`TextFileError`) when it
    is over ``limit`` bytes or not a regular file (a folder, a named pipe, a device: never
    waited on). Raises :class:`OSError` if it cannot be read (a name with a NUL character
    included)."""
    if "\0" in str(path):
        raise OSError(errno.EINVAL, "the file name contains a NUL character")
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):  # refused unopened: opening a pipe waits for a writer
        raise _not_regular(mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    with open(os.open(path, flags | getattr(os, "O_BINARY", 0)), "rb") as file:
        status = os.fstat(file.fileno())  # what was opened (the name may have changed)
        if not stat.S_ISREG(status.st_mode):
            raise _not_regular(status.st_mode)
        if status.st_size > limit:
            raise TextFileError(_too_big(status.st_size, limit))
        data = file.read(limit + 1)
    if len(data) > limit:
        raise TextFileError(_too_big(len(data), limit))
    return data


def read_text(path: str | Path, *, limit: int) -> str:
    """The checked text of the file at ``path`` (:func:`decode_text`), read by
    :func:`read_bytes` (a regular file only, no more than ``limit`` + 1 bytes of it)."""
    return decode_text(read_bytes(path, limit=limit), limit=limit)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: into a new file beside it, flushed
    to the disk, then renamed over ``path`` (the old file keeps its permissions). If
    anything fails the old file is left as it was and the new one removed; a process
    killed mid-write leaves the old file and a stray ``.NAME.XXXXXXXX.tmp`` beside it."""
    _write_atomic(path, text)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, as :func:`write_text_atomic` writes text."""
    _write_atomic(path, data)


def _temporary(target: Path) -> Path:
    """The new file an atomic write of ``target`` writes first (beside it)."""
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")


def longest_name(folder: str | Path) -> int:
    """The longest file name (in bytes) that an atomic write can create in ``folder``, an
    existing folder: its new file's name is longer than the target's."""
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # not known here: the common limit
        limit = 255
    return limit - (len(_temporary(Path("x")).name) - 1)


def _write_atomic(path: str | Path, content: str | bytes) -> None:
    target = Path(path)
    temporary = _temporary(target)
    mode = None
    with contextlib.suppress(FileNotFoundError):
        mode = stat.S_IMODE(os.stat(target).st_mode)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        if isinstance(content, bytes):
            with open(fd, "wb") as binary:
                binary.write(content)
                binary.flush()
                os.fsync(binary.fileno())
        else:
            with open(fd, "w", encoding="utf-8") as file:
                file.write(content)
                file.flush()
                os.fsync(file.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entry of a renamed file to the disk (POSIX; elsewhere, and on
    file systems that refuse it, the rename stands without)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
