"""The checks of what a user types or names (ycsbctl/user_input.py), each against the file system itself: a file
or folder that cannot be read or written is one line naming it, exit 2; one that can is left as it was."""

from __future__ import annotations

import contextlib
import math
import ssl
from pathlib import Path

import pytest

from ycsbctl.errors import UserError
from ycsbctl.user_input import (
    ca_context,
    decimal_number,
    finite,
    readable_file,
    url_files,
    whole_number,
    writable_file,
    writable_folder,
    write_whole,
)


def test_finite_lets_every_finite_number_through_and_no_nan_or_infinity():
    assert [finite(x) for x in (0.0, -1.5, 1e308)] == [0.0, -1.5, 1e308]
    for bad in (math.nan, math.inf, -math.inf, float("1e999")):
        with pytest.raises(ValueError, match="is not a finite number"):
            finite(bad)


def test_a_number_is_ascii_digits_and_no_other_scripts_digit_is_read_as_one():
    """Every character Unicode gives a digit or numeric value (unicodedata, not our reading), but ASCII's ten, is
    refused on its own and inside a number, by both rules; what they take is what int() and float() read."""
    import sys
    import unicodedata

    others = [chr(c) for c in range(sys.maxunicode + 1) if not "0" <= chr(c) <= "9"
              and unicodedata.numeric(chr(c), None) is not None]
    assert len(others) > 1000 and "²" in others and "٣" in others
    for ch in others:
        for text in (ch, f"1{ch}", f"{ch}.5"):
            with pytest.raises(ValueError):
                whole_number(text)
            with pytest.raises(ValueError):
                decimal_number(text)
    for text in ("0", "7", " 42 ", "+3", "-12", "0009"):
        assert whole_number(text) == int(text)
    for text in ("1", "2.5", ".5", "5.", "1e3", "-0.25", " 3E-2 "):
        assert decimal_number(text) == float(text)
    for bad in ("", "1_000", "1.0.0", "0x10", "nan", "inf", "1e999", "١٠"):
        with pytest.raises(ValueError):
            decimal_number(bad)
    for bad in ("", "1_000", "1.0", "1e3", " ", "--1"):
        with pytest.raises(ValueError):
            whole_number(bad)


def test_a_file_to_write_is_refused_where_the_file_system_would_refuse_it_and_nothing_is_left(tmp_path: Path):
    (tmp_path / "plain").write_text("kept")
    assert writable_file(tmp_path / "plain", "x") == tmp_path / "plain"
    assert (tmp_path / "plain").read_text() == "kept"  # an existing file is not truncated by the check
    assert writable_file(tmp_path / "new.html", "x") == tmp_path / "new.html" and not (tmp_path / "new.html").exists()
    assert writable_file(tmp_path / "a" / "b" / "new.html", "x", creates_folders=True)
    for path, why in ((tmp_path, "Is a directory"), (tmp_path / "plain" / "x.html",
                                                     f"Not a directory ({tmp_path / 'plain'})"),
                      (tmp_path / "none" / "x.html", f"No such file or directory ({tmp_path / 'none'})")):
        with pytest.raises(UserError) as told:
            writable_file(path, "the page")
        assert told.value.exit_code == 2 and str(told.value).startswith(f"cannot write the page {path}: {why}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]  # the probes are gone


def test_a_folder_to_write_needs_its_nearest_existing_parent_to_take_a_file(tmp_path: Path):
    (tmp_path / "plain").write_text("")
    assert writable_folder(tmp_path / "a" / "b", "the result folder") == tmp_path / "a" / "b"
    assert not (tmp_path / "a").exists()  # nothing created
    for path in (tmp_path / "plain", tmp_path / "plain" / "sub"):
        with pytest.raises(UserError, match=r"cannot write the result folder .*: Not a directory.*--out DIR"):
            writable_folder(path, "the result folder")


def test_a_file_to_read_and_the_files_a_url_names_are_read_now(tmp_path: Path):
    (tmp_path / "cert.pem").write_text("x")
    assert readable_file(tmp_path / "cert.pem", "the certificate") == tmp_path / "cert.pem"
    with pytest.raises(UserError, match=f"cannot read the certificate {tmp_path}: Is a directory"):
        readable_file(tmp_path, "the certificate")
    url_files(f"postgresql://h/db?SSLCERT={tmp_path / 'cert.pem'}", ("sslcert", "sslkey"))  # present: nothing said
    with pytest.raises(UserError, match=f"cannot read the sslkey {tmp_path / 'no.key'}: No such file or directory"):
        url_files(f"postgresql://h/db?sslcert={tmp_path / 'cert.pem'}&sslkey={tmp_path / 'no.key'}",
                  ("sslcert", "sslkey"))


def test_a_ca_file_is_a_pem_certificate_or_one_line_naming_the_url_option(tmp_path: Path):
    assert isinstance(ca_context(None, "tlsCAFile"), ssl.SSLContext)  # the system's CAs
    (tmp_path / "not-a-cert.pem").write_text("x\n")
    for ca, why in ((tmp_path / "not-a-cert.pem", "NO_CERTIFICATE_OR_CRL_FOUND"), (tmp_path / "gone.pem",
                                                                                   "No such file"),
                    (tmp_path, "Is a directory")):
        with pytest.raises(UserError) as told:
            ca_context(str(ca), "sslrootcert")
        text = str(told.value)
        assert text.startswith(f"cannot read the CA certificate {ca}: ") and why in text and "(sslrootcert)" in text
        assert told.value.exit_code == 2 and "\n" not in text


def test_a_file_written_whole_is_there_whole_or_not_at_all_with_one_line_and_no_temporary_file(tmp_path: Path):
    """write_whole on a tmpfs that is full, one mounted read-only, and under a file: each a UserError naming the
    path (exit 1), the file system holding exactly what it held before (os.listdir, the old file's bytes); on room,
    the text read back is the text given."""
    import os
    import subprocess

    def mounted(path: Path, opts: str) -> Path:
        path.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "ycsbctl-test", str(path)],
                          capture_output=True).returncode:
            pytest.skip("cannot mount a tmpfs here (needs root)")
        return path

    full, ro = mounted(tmp_path / "full", "size=64k"), mounted(tmp_path / "ro", "size=64k,ro")
    try:
        (full / "page.html").write_text("old")
        with contextlib.suppress(OSError), open(full / "filler", "wb") as f:  # filled to its last byte
            while True:
                f.write(b"\0" * 4096)
                f.flush()
        (tmp_path / "plain").write_text("a file")
        for path, why in ((full / "page.html", "No space left on device"), (ro / "page.html", "Read-only file system"),
                          (tmp_path / "plain" / "page.html", "Not a directory"),
                          (full / "new" / "page.html", "No space left on device")):
            listed = {d: sorted(os.listdir(d)) for d in (full, ro, tmp_path)}
            with pytest.raises(UserError) as err:
                write_whole(path, "<html>" + "x" * 100_000, "the comparison page")
            assert err.value.exit_code == 1 and str(err.value) == f"cannot write the comparison page {path}: {why}"
            assert {d: sorted(os.listdir(d)) for d in listed} == listed, path  # no temporary file, no folder
        assert (full / "page.html").read_text() == "old"
        assert write_whole(tmp_path / "a" / "b.json", "{\"x\": 1}\n", "x").read_text() == "{\"x\": 1}\n"
        assert sorted(os.listdir(tmp_path / "a")) == ["b.json"]
    finally:
        for m in (full, ro):
            subprocess.run(["umount", "-l", str(m)], check=False)
