"""safe_tar refuses every member that would escape the target folder, and extracts a plain one."""
import io
import os
import tarfile
import tempfile
import unittest

import safe_tar


def archive_with(*members):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for info, data in members:
            t.addfile(info, io.BytesIO(data) if data is not None else None)
    buf.seek(0)
    return tarfile.open(fileobj=buf)


def file_member(name, data=b"x"):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def link_member(name, target, kind=tarfile.SYMTYPE):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


class SafeTarTest(unittest.TestCase):
    def assert_refused(self, *members):
        with tempfile.TemporaryDirectory() as d:
            dest = os.path.join(d, "dest")
            os.makedirs(dest)
            with self.assertRaises(safe_tar.UnsafeMember):
                safe_tar.extract_all(archive_with(*members), dest)
            self.assertEqual(os.listdir(dest), [], "nothing is extracted from a refused archive")
            self.assertEqual(sorted(os.listdir(d)), ["dest"])

    def test_refuses_parent_escape(self):
        self.assert_refused(file_member("ok.txt"), file_member("../evil.txt"))

    def test_refuses_absolute(self):
        self.assert_refused(file_member("/tmp/evil.txt"))

    def test_refuses_symlink_out(self):
        self.assert_refused(link_member("lnk", "../../etc/passwd"))
        self.assert_refused(link_member("lnk", "/etc/passwd"))

    def test_refuses_hardlink_out(self):
        self.assert_refused(link_member("lnk", "../x", tarfile.LNKTYPE))

    def test_refuses_device(self):
        info = tarfile.TarInfo("null")
        info.type = tarfile.CHRTYPE
        self.assert_refused((info, None))

    def test_extracts_plain_files_and_inner_links(self):
        with tempfile.TemporaryDirectory() as d:
            safe_tar.extract_all(archive_with(file_member("a/b.txt", b"hello"),
                                              link_member("c", "a/b.txt")), d)
            with open(os.path.join(d, "c")) as f:
                self.assertEqual(f.read(), "hello")


if __name__ == "__main__":
    unittest.main()
