"""The installed tool: `make install`, the manual page, the shell completions and `make deb`.

Run by `make test` (and `make test-install`) with the test virtualenv's Python:

    .build/test-venv/bin/python Tests/Install/run_tests.py

Everything is installed under a temporary PREFIX, run from another folder, and uninstalled.
The Debian package is built with `make deb`, checked by lintian, unpacked into a throwaway root
and built the demo from there; when run as root on a machine where no rolodeck package is
installed, it is also installed for real with dpkg -i and removed again. The shells, man and
Debian's tools come from the Makefile's TEST_PACKAGES; a tool that is missing fails the test
that needs it, never skips it.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "Examples" / "demo"
ZSH_DRIVER = Path(__file__).resolve().parent / "complete.zsh"
ENVIRONMENT = dict(os.environ, SOURCE_DATE_EPOCH="1795000000", LC_ALL="C.UTF-8", MANWIDTH="120")


def run(arguments, cwd=None, check=True, input=None):
    """Runs a command and returns its result; a failure shows its output."""
    result = subprocess.run(arguments, cwd=cwd, env=ENVIRONMENT, input=input, capture_output=True,
                            text=True, timeout=1800)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, arguments))} exited {result.returncode}\n"
                             f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def tool(name):
    path = shutil.which(name)
    if not path:
        raise AssertionError(f"{name} is not installed; `make test-deps` installs it (Debian's TEST_PACKAGES)")
    return path


def commands_and_options(rolodeck):
    """Every command `rolodeck --help` lists, each with the options its own --help lists."""
    help_text = run([rolodeck, "--help"]).stdout
    listed = help_text.split("Commands:\n")[1].split("\n\n")[0]
    commands = [line.split()[0] for line in listed.splitlines()]
    options = {}
    for command in commands:
        text = run([rolodeck, command, "--help"]).stdout.split("Options:\n")[1].split("\n\n")[0]
        options[command] = re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", text)
    return commands, options


class Installed(unittest.TestCase):
    """`make install PREFIX=<tmp>`, used from another folder, then `make uninstall`."""

    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="rolodeck-install-"))
        cls.prefix = cls.work / "prefix"
        run(["make", "--no-print-directory", "install", f"PREFIX={cls.prefix}"], cwd=REPO)
        cls.rolodeck = cls.prefix / "bin" / "rolodeck"
        cls.man_page = cls.prefix / "share" / "man" / "man1" / "rolodeck.1"
        cls.bash = cls.prefix / "share" / "bash-completion" / "completions" / "rolodeck"
        cls.zsh = cls.prefix / "share" / "zsh" / "site-functions" / "_rolodeck"
        cls.fish = cls.prefix / "share" / "fish" / "vendor_completions.d" / "rolodeck.fish"
        cls.commands, cls.options = commands_and_options(cls.rolodeck)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_installs_the_binary_page_and_completions(self):
        for path in (self.rolodeck, self.man_page, self.bash, self.zsh, self.fish):
            self.assertTrue(path.is_file(), f"{path} was not installed")
        self.assertTrue(os.access(self.rolodeck, os.X_OK))
        # Swift's runtime is linked in: the installed binary needs no toolchain.
        libraries = run(["ldd", self.rolodeck]).stdout
        self.assertNotIn("libswift", libraries)
        self.assertNotIn("libFoundation", libraries)
        self.assertNotIn("not found", libraries)
        self.assertIn("build", self.commands)
        self.assertIn("--open", self.options["serve"])

    def test_builds_the_demo_from_another_folder(self):
        elsewhere = self.work / "elsewhere"
        elsewhere.mkdir(exist_ok=True)
        result = run([self.rolodeck, "build", "--site", DEMO, "--out", "site"], cwd=elsewhere)
        self.assertIn("Built", result.stdout + result.stderr)
        index = (elsewhere / "site" / "index.html").read_text(encoding="utf-8")
        self.assertIn("<title>Rolodeck Demo Directory</title>", index)
        self.assertTrue((elsewhere / "site" / "contacts" / "kim-cheolsu.html").is_file())

    def test_loads_libvips_only_for_photos(self):
        # libvips is loaded with dlopen when a photo needs it: not linked, and still found.
        self.assertNotIn("libvips", run(["ldd", self.rolodeck]).stdout)
        site = self.work / "photo-site"
        shutil.rmtree(site, ignore_errors=True)
        shutil.copytree(DEMO, site)
        contacts_path = site / "store" / "contacts.json"
        contacts = json.loads(contacts_path.read_text(encoding="utf-8"))
        contacts[0]["photo"] = "photos/face.png"
        contacts_path.write_text(json.dumps(contacts, ensure_ascii=False), encoding="utf-8")
        (site / "store" / "photos").mkdir()
        shutil.copy(REPO / "Tests" / "Photos" / "face.png", site / "store" / "photos" / "face.png")
        run([self.rolodeck, "build", "--quiet", "--site", site, "--out", self.work / "photo-out"])
        thumbnails = list((self.work / "photo-out" / "photos").glob("*.webp"))
        self.assertEqual(len(thumbnails), 1, thumbnails)
        self.assertEqual(thumbnails[0].read_bytes()[8:12], b"WEBP")

    def test_version_names_the_source_revision(self):
        line = run([self.rolodeck, "--version"]).stdout.strip()
        revision = run(["git", "-C", REPO, "describe", "--always", "--dirty", "--abbrev=12"]).stdout.strip()
        self.assertRegex(line, r"^rolodeck \d+\.\d+\.\d+ \(.+\)$")
        self.assertEqual(line.split("(")[1].rstrip(")"), revision)

    def test_man_renders_every_command_and_option(self):
        tool("man")
        rendered = run(["man", "-l", self.man_page]).stdout
        rendered = re.sub(r".\x08", "", rendered)  # overstrikes, should man print any
        for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT",
                        "EXIT STATUS", "EXAMPLES"):
            self.assertRegex(rendered, rf"(?m)^{section}$")
        for command in self.commands:
            heading = re.search(rf"(?m)^   rolodeck {command}( .*)?$", rendered)
            self.assertIsNotNone(heading, f"the rendered page has no heading for {command}")
            section = rendered[heading.end():].split("\n   rolodeck ")[0].split("\nOPTIONS\n")[0]
            for option in self.options[command]:
                self.assertRegex(section, rf"(?<![\w-]){re.escape(option)}(?![\w-])",
                                 f"the page's {command} lacks {option}")
        warnings = run(["groff", "-man", "-Tutf8", "-ww", "-z", self.man_page]).stderr
        self.assertEqual(warnings, "", "groff warns about the page")

    def bash_complete(self, words):
        """What the installed bash completion offers for a command line, its last word unfinished."""
        script = (f'source "{self.bash}"\n'
                  f'COMP_WORDS=({" ".join(map(repr, words))}); COMP_CWORD={len(words) - 1}\n'
                  '_rolodeck; printf "%s\\n" "${COMPREPLY[@]}"\n')
        return run([tool("bash"), "-c", script], cwd=REPO).stdout.split()

    def test_bash_completion(self):
        registered = run([tool("bash"), "-c", f'source "{self.bash}"; complete -p rolodeck']).stdout
        self.assertEqual(registered.strip(), "complete -F _rolodeck rolodeck")
        self.assertEqual(self.bash_complete(["rolodeck", "b"]), ["build"])
        self.assertEqual(sorted(self.bash_complete(["rolodeck", ""])),
                         sorted(self.commands + ["--help", "-h", "--version", "-V"]))
        for command in self.commands:
            self.assertEqual(sorted(self.bash_complete(["rolodeck", command, "-"])),
                             sorted(self.options[command]), command)
        self.assertEqual(self.bash_complete(["rolodeck", "build", "--site", "Exa"]), ["Examples"])
        self.assertEqual(self.bash_complete(["rolodeck", "build", "--out", "=", "Exa"]), ["Examples"])
        self.assertEqual(self.bash_complete(["rolodeck", "completion", "f"]), ["fish"])
        self.assertEqual(self.bash_complete(["rolodeck", "serve", "--port", ""]), [])

    def test_bash_completion_loads_on_demand(self):
        # bash-completion finds the script itself by the command's name, as an installed one is.
        loader = Path("/usr/share/bash-completion/bash_completion")
        self.assertTrue(loader.is_file(), "bash-completion is not installed (Debian's bash-completion)")
        script = (f'source {loader}\n'
                  f'export XDG_DATA_DIRS="{self.prefix / "share"}"\n'
                  '__load_completion rolodeck && complete -p rolodeck\n')
        self.assertIn("_rolodeck rolodeck", run([tool("bash"), "-c", script]).stdout)

    def zsh_complete(self, line):
        output = run([tool("zsh"), ZSH_DRIVER, self.zsh.parent, line], cwd=REPO).stdout
        completed = re.findall(r"(?m)^COMPLETED: (.*?)\r?$", output)
        self.assertTrue(completed, f"zsh printed no completed line:\n{output[-2000:]}")
        # zsh's suffix after a completed word (a space, a folder's slash) is not part of the line.
        return completed[-1].rstrip(" /")

    def test_zsh_completion(self):
        self.assertEqual(self.zsh_complete("rolodeck b"), "rolodeck build")
        self.assertEqual(self.zsh_complete("rolodeck serve --op"), "rolodeck serve --open")
        self.assertEqual(self.zsh_complete("rolodeck completion fi"), "rolodeck completion fish")
        self.assertEqual(self.zsh_complete("rolodeck build --site Exa"), "rolodeck build --site Examples")
        self.assertEqual(self.zsh_complete("rolodeck init Exa"), "rolodeck init Examples")

    def fish_complete(self, line):
        script = f'source "{self.fish}"; complete -C "{line}"'
        return [entry.split("\t")[0] for entry in run([tool("fish"), "-c", script], cwd=REPO).stdout.splitlines()]

    def test_fish_completion(self):
        self.assertEqual(self.fish_complete("rolodeck b"), ["build"])
        self.assertEqual(sorted(self.fish_complete("rolodeck ")), sorted(self.commands))
        for command in self.commands:
            long_options = [option for option in self.options[command] if option.startswith("--")]
            self.assertEqual(sorted(self.fish_complete(f"rolodeck {command} --")), sorted(long_options), command)
        self.assertEqual(self.fish_complete("rolodeck build --site Exa"), ["Examples/"])

    # Runs last: unittest runs a class's tests in the order of their names.
    def test_zz_uninstall_removes_every_file(self):
        run(["make", "--no-print-directory", "uninstall", f"PREFIX={self.prefix}"], cwd=REPO)
        left = [path for path in self.prefix.rglob("*") if not path.is_dir()]
        self.assertEqual(left, [])


class DebianPackage(unittest.TestCase):
    """`make deb`: lintian, an unpacked root, and a real install where that is safe."""

    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="rolodeck-deb-"))
        output = run(["make", "--no-print-directory", "deb"], cwd=REPO).stdout
        cls.package = REPO / output.strip().splitlines()[-1]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def field(self, name):
        return run(["dpkg-deb", "--field", self.package, name]).stdout.strip()

    def test_control_names_the_libraries(self):
        self.assertTrue(self.package.is_file(), self.package)
        self.assertEqual(self.field("Package"), "rolodeck")
        depends = self.field("Depends")
        for library in ("libc6", "libcmark0.30.2", "libvips42", "libjemalloc2"):
            self.assertIn(library, depends)
        # The QR codes are Rolodeck's own; libqrencode is only the tests' reference.
        self.assertNotIn("libqrencode", depends)
        self.assertNotIn("swift", depends.lower())

    def test_lintian_reports_no_error(self):
        result = run([tool("lintian"), "--fail-on", "error", self.package], check=False)
        tags = [line for line in result.stdout.splitlines() if re.match(r"^[EW]: ", line)]
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(tags, [], "lintian errors or warnings")

    def test_unpacked_package_builds_the_demo(self):
        root = self.work / "root"
        run(["dpkg-deb", "-x", self.package, root])
        rolodeck = root / "usr" / "bin" / "rolodeck"
        self.assertIn("rolodeck ", run([rolodeck, "--version"]).stdout)
        run([rolodeck, "build", "--quiet", "--site", DEMO, "--out", self.work / "site"], cwd=self.work)
        self.assertIn("Rolodeck Demo Directory", (self.work / "site" / "index.html").read_text(encoding="utf-8"))
        for path in ("usr/share/man/man1/rolodeck.1.gz", "usr/share/doc/rolodeck/copyright",
                     "usr/share/bash-completion/completions/rolodeck",
                     "usr/share/zsh/vendor-completions/_rolodeck",
                     "usr/share/fish/vendor_completions.d/rolodeck.fish"):
            self.assertTrue((root / path).is_file(), path)

    def test_dpkg_installs_and_removes_it(self):
        if os.geteuid() != 0:
            self.skipTest("dpkg -i needs root; the unpacked-root test covers the files")
        status = run(["dpkg-query", "-W", "-f=${Status}", "rolodeck"], check=False).stdout
        if "installed" in status and "not-installed" not in status:
            self.skipTest("a rolodeck package is installed on this machine; not replacing it")
        if Path("/usr/bin/rolodeck").exists():
            # dpkg would overwrite a copy put there by hand, and remove it with the package.
            self.skipTest("/usr/bin/rolodeck exists outside any package; not replacing it")
        run(["dpkg", "-i", self.package])
        try:
            self.assertIn("rolodeck ", run(["/usr/bin/rolodeck", "--version"]).stdout)
            self.assertEqual(run(["man", "-w", "rolodeck"]).stdout.strip(), "/usr/share/man/man1/rolodeck.1.gz")
        finally:
            run(["dpkg", "--purge", "rolodeck"])
        self.assertFalse(Path("/usr/bin/rolodeck").exists())


if __name__ == "__main__":
    unittest.main(verbosity=2, argv=sys.argv[:1])
