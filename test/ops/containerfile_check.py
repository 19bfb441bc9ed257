#!/usr/bin/env python3
"""Checks examples/Containerfile against the tree and the binary, since no container engine
runs here (docs/operations.md, "Service files"): its build stage copies every folder the top
CMakeLists.txt adds when the tests are off (and nothing that does not exist), and its
runtime stage installs the Debian package of every shared library `ldd toolgate` names
beyond libc's own. Usage: containerfile_check.py SOURCE_DIR TOOLGATE_BINARY"""
import pathlib
import re
import subprocess
import sys

# Part of libc6, which debian:12-slim has.
LIBC = {"linux-vdso.so.1", "libc.so.6", "libm.so.6", "ld-linux-x86-64.so.2", "libpthread.so.0",
        "libdl.so.2", "librt.so.1"}


def stages(text):
    """The Containerfile's stages, as lists of logical lines (continuations joined)."""
    lines, current = [], ""
    for raw in text.splitlines():
        if raw.lstrip().startswith("#"):
            continue
        current += raw.rstrip("\\").strip() + " "
        if not raw.rstrip().endswith("\\"):
            if current.strip():
                lines.append(current.strip())
            current = ""
    result = []
    for line in lines:
        if line.startswith("FROM "):
            result.append([])
        if result:
            result[-1].append(line)
    return result


def added_folders(cmakelists):
    """The add_subdirectory() folders of the top CMakeLists.txt outside its tests block."""
    folders, depth = [], 0
    for line in cmakelists.splitlines():
        code = line.split("#", 1)[0].strip()
        if code.startswith("if(TOOLGATE_BUILD_TESTS"):
            depth += 1
        elif depth and code.startswith("if("):
            depth += 1
        elif depth and code.startswith("endif("):
            depth -= 1
        elif not depth:
            match = re.match(r"add_subdirectory\((\w+)\)", code)
            if match:
                folders.append(match.group(1))
    return folders


def packages_installed(stage):
    names = set()
    for line in stage:
        if line.startswith("RUN ") and "apt-get install" in line:
            for command in line.split("&&"):
                words = command.split()
                if "apt-get" in words and "install" in words:
                    after = words[words.index("install") + 1:]
                    names.update(w for w in after if not w.startswith("-"))
    return names


def main(source, binary):
    problems = []
    text = (pathlib.Path(source) / "examples/Containerfile").read_text()
    found = stages(text)
    if len(found) != 2:
        sys.exit(f"expected a build stage and a runtime stage, found {len(found)} stages")
    build, runtime = found
    copied = set()
    for line in build:
        if line.startswith("COPY "):
            what = line.split()[1]
            copied.add(what)
            if not (pathlib.Path(source) / what).exists():
                problems.append(f"the build stage copies {what}, which is not in the repository")
    cmakelists = (pathlib.Path(source) / "CMakeLists.txt").read_text()
    for folder in added_folders(cmakelists):
        if folder not in copied:
            problems.append(f"the build stage does not copy {folder}/, which CMakeLists.txt adds")

    installed = packages_installed(runtime)
    ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    for line in ldd.splitlines():
        fields = line.split()
        if not fields or fields[0].split("/")[-1] in LIBC:
            continue
        path = fields[2] if len(fields) > 2 and fields[1] == "=>" else fields[0]
        owner = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
        if owner.returncode != 0:
            # /lib is a link to /usr/lib on Debian 12: dpkg knows the file under one of them.
            alternative = path.replace("/lib/", "/usr/lib/", 1) if path.startswith("/lib/") \
                else path.replace("/usr/lib/", "/lib/", 1)
            owner = subprocess.run(["dpkg", "-S", alternative], capture_output=True, text=True)
        if owner.returncode != 0:
            problems.append(f"no Debian package owns {path}, which toolgate loads")
            continue
        package = owner.stdout.split(":")[0]
        if package not in installed:
            problems.append(f"toolgate loads {fields[0]} (package {package}), which the runtime "
                            f"stage does not install")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"Containerfile: {len(copied)} copies, runtime packages {sorted(installed)} cover "
          f"what ldd names")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
