"""The workload property parser reads a file exactly as ``java.util.Properties.load`` does (what
YCSB's ``-P`` uses): each case is read by the JDK itself and by ycsbctl, and both answers must match."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ycsbctl.errors import UserError
from ycsbctl.workload.properties import read_property_file

# Loads the file as YCSB's Client does (Properties.load on a FileInputStream: ISO-8859-1) and prints
# every entry as the UTF-16 code units of key and value in hex, so no escaping stands between us.
DUMP_JAVA = """
import java.io.FileInputStream;
import java.util.Properties;
import java.util.TreeSet;

public class Dump {
  static String hex(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) b.append(String.format("%04x", (int) c));
    return b.toString();
  }
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    try (FileInputStream in = new FileInputStream(args[0])) { p.load(in); }
    for (String k : new TreeSet<>(p.stringPropertyNames())) System.out.println(hex(k) + " " + hex(p.getProperty(k)));
  }
}
"""

CASES = {
    "escaped equals in a key": "a\\=b=1\n",
    "escaped colon and space in a key": "a\\:b\\ c=2\n",
    "trailing escaped backslash": "path=C:\\\\\nnext=1\n",
    "unicode escape": "u=caf\\u00e9 \\u0041\n",
    "tab, newline and unknown escapes": "t=x\\ty\\nz\\q\n",
    "continuation lines": "long=one,\\\n     two,\\\n\tthree\nafter=yes\n",
    "odd backslashes continue, even do not": "a=x\\\\\\\nb=y\\\\\nc=z\n",
    "colon and blank separators": "colon:1\nspace 2\ntab\t3\nmixed : = 4\n",
    "comments, also after a backslash": "# c\\\n! d\nk=v\n  # indented comment\n",
    "trailing spaces are kept, leading ones are not": "k =   v  \n",
    "bare key and empty key": "bare\n=empty-key\nempty=\n",
    "later line wins": "a=1\na=2\n",
    "CRLF and lone CR line ends": "a=1\r\nb=2\rc=3\r\n",
    "latin-1 bytes": "name=caf\xe9\n",
    "last line without a newline, ending in a backslash": "a=1\nb=2\\",
    "hash inside a value": "url=mongodb://h:1/ycsb?w=1#frag\n",
}


@pytest.fixture(scope="module")
def java_dump(tmp_path_factory: pytest.TempPathFactory):
    """A function: file → what java.util.Properties reads from it."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("a JDK (javac, java) is not installed (apt-get install default-jdk-headless)")
    d = tmp_path_factory.mktemp("java-props")
    (d / "Dump.java").write_text(DUMP_JAVA)
    subprocess.run(["javac", "Dump.java"], cwd=d, check=True, capture_output=True, timeout=120)

    def dump(path: Path) -> dict[str, str]:
        out = subprocess.run(["java", "-cp", str(d), "Dump", str(path)], check=True, capture_output=True,
                             text=True, timeout=60).stdout
        unhex = lambda h: "".join(chr(int(h[i:i + 4], 16)) for i in range(0, len(h), 4))  # noqa: E731
        return dict((unhex(k), unhex(v)) for k, v in (line.split(" ") for line in out.splitlines()))

    return dump


@pytest.mark.parametrize("case", list(CASES))
def test_a_property_file_reads_as_java_reads_it(case: str, java_dump, tmp_path: Path) -> None:
    path = tmp_path / "case.properties"
    path.write_bytes(CASES[case].encode("latin-1"))
    java = java_dump(path)
    assert java, "the JDK read nothing: the case is wrong"
    assert read_property_file(path) == java


def test_the_cases_named_by_the_issue_read_as_java_says(java_dump, tmp_path: Path) -> None:
    """The four the old parser got wrong, with Java's answer written out."""
    path = tmp_path / "p"
    path.write_bytes(b"a\\=b=1\nback=x\\\\\nu=\\u0041\\u00e9\nt=a\\tb\n")
    assert java_dump(path) == {"a=b": "1", "back": "x\\", "u": "A\u00e9", "t": "a\tb"}
    assert read_property_file(path) == java_dump(path)


def test_a_bad_unicode_escape_is_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.properties"
    path.write_text("recordcount=1000\nname=\\u00zz\n")
    with pytest.raises(UserError, match=r"bad.properties: bad unicode escape"):
        read_property_file(path)
