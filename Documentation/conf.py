# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration of vGPU's documentation: `make htmldocs` renders
# Documentation/ into build/htmldocs/ (see build-and-test.rst).
#
# The kernel-doc comments of the uAPI header are rendered by the kernel's
# own extension, Documentation/sphinx/kerneldoc.py, which runs the kernel's
# scripts/kernel-doc.  Neither is part of this tree: tools/setup extracts
# them from Debian's linux-source package into build/ext/, as it does the
# kselftest harness and checkpatch.

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
EXT = os.path.join(ROOT, "build", "ext")

if not os.path.exists(os.path.join(EXT, "sphinx", "kerneldoc.py")):
    sys.exit("Documentation/conf.py: %s/sphinx/kerneldoc.py is missing: "
             "run tools/setup" % EXT)
sys.path.insert(0, os.path.join(EXT, "sphinx"))

project = "vGPU"
copyright = "the vGPU developers; GPL-2.0"
master_doc = "index"
language = "en"

extensions = ["kerneldoc"]

# kerneldoc.py runs kerneldoc_bin on kerneldoc_srctree/<path of the
# directive>, so `.. kernel-doc:: include/uapi/linux/vgpu.h` names the file
# as it is named everywhere else in the tree.
kerneldoc_bin = os.path.join(EXT, "kernel-doc", "kernel-doc")
kerneldoc_srctree = ROOT

# Sphinx's default theme, shipped with python3-sphinx: nothing more to
# install.
html_theme = "alabaster"
html_title = "vGPU documentation"
html_show_sourcelink = False

# Sphinx's C domain must not read the kernel's annotations as types.
c_id_attributes = ["__user", "__iomem", "__force", "__packed", "__aligned"]
