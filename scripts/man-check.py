#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the manual pages that scripts/man.sh made against the code.

Usage: scripts/man-check.py PAGEDIR

For every EXPORT_SYMBOL_GPL of the tree (tests/vm aside):
  * a page PAGEDIR/NAME.9 (PAGEDIR/tests/NAME.9 for a test or sample
    module) with the sections NAME, SYNOPSIS, ARGUMENTS, DESCRIPTION,
    RETURN, CONTEXT and SEE ALSO, none empty;
  * the SYNOPSIS, the ARGUMENTS and the definition in the .c name the same
    parameters in the same order, with the same return type; a module
    export is declared in a public header (include/) with the same
    parameter names;
  * RETURN of a void function says it returns nothing, RETURN of any
    other does not; every -Ecode, NULL and ERR_PTR its body returns
    directly is named in RETURN;
  * a function whose body sleeps (a mutex, a wait, a flush, GFP_KERNEL,
    might_sleep) says in CONTEXT that it may sleep (or needs process
    context), and does not claim any or atomic context;
  * SEE ALSO names no madcm page that does not exist.
Prints one line per finding; exits 1 when there is any.
"""
import os
import re
import subprocess
import sys

REQUIRED = ["NAME", "SYNOPSIS", "ARGUMENTS", "DESCRIPTION", "RETURN",
            "CONTEXT", "SEE ALSO"]
SLEEPS = re.compile(r"\b(might_sleep|mutex_lock\w*|down_read|down_write|"
                    r"wait_for_completion\w*|wait_event\w*|synchronize_\w+|"
                    r"rcu_barrier|flush_work\w*|flush_delayed_work|"
                    r"cancel_work_sync|cancel_delayed_work_sync|msleep|"
                    r"destroy_workqueue|kthread_stop|rtnl_lock|"
                    r"unregister_netdevice_notifier|GFP_KERNEL)\b")

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
findings = []


def finding(name, text):
    findings.append(f"{name}: {text}")


def git_files(*patterns):
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard",
                          "--", *patterns], cwd=root, check=True,
                         capture_output=True, text=True).stdout
    return sorted(f for f in out.split()
                  if not f.startswith("tests/vm/") and
                  not f.endswith(".mod.c"))


def strip_comments(code):
    code = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()),
                  code, flags=re.S)
    return re.sub(r"//[^\n]*", "", code)


def norm_type(t):
    t = re.sub(r"\b(static|inline|extern|__must_check|noinline)\b", "", t)
    t = re.sub(r"\s*\*\s*", " *", t)
    return re.sub(r"\s+", " ", t).strip()


def split_params(plist):
    """Parameter names and the whole text of each, of a C parameter list."""
    parts, depth, cur = [], 0, ""
    for ch in plist:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur)
    names = []
    for p in (x.strip() for x in parts):
        if not p or p == "void":
            continue
        fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", p)
        m = fp or re.search(r"(\w+)\s*(\[[^\]]*\])?$", p)
        names.append(m.group(1) if m else p)
    return names


def balanced(text, start, open_ch, close_ch):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i
    return -1


def return_type(code, m):
    """The return type before a match of definition()'s pattern: on the
    name's line or, kernel style, alone on the line before."""
    ret = m.group(2)
    if not ret.strip():
        before = code[:m.start() + 1].rstrip("\n").split("\n")
        ret = before[-1] if before else ""
    return norm_type(ret)


def definition(code, name):
    """(return type, parameter names, body) of NAME's definition."""
    for m in re.finditer(r"(^|\n)([^\n;{}#]*?)\b" + name + r"\s*\(", code):
        popen = m.end() - 1
        pclose = balanced(code, popen, "(", ")")
        rest = code[pclose + 1:]
        if not re.match(r"\s*\{", rest):
            continue
        ret = return_type(code, m)
        bopen = pclose + 1 + rest.index("{")
        bclose = balanced(code, bopen, "{", "}")
        return (ret, split_params(code[popen + 1:pclose]),
                code[bopen:bclose + 1])
    return None


def declaration(headers, name):
    for h in headers:
        code = strip_comments(open(os.path.join(root, h)).read())
        m = re.search(r"(^|\n)([^\n;{}#]*?)\b" + name + r"\s*\(", code)
        if not m:
            continue
        popen = m.end() - 1
        pclose = balanced(code, popen, "(", ")")
        if re.match(r"\s*;", code[pclose + 1:]):
            return h, return_type(code, m), split_params(code[popen + 1:pclose])
    return None


def returned_errors(body):
    """The -Ecodes a body returns itself: return -E, ERR_PTR(-E), or one
    assigned to a variable that a return statement returns."""
    codes = set(re.findall(r"\breturn\s+-(E[A-Z0-9]+)\b", body))
    codes |= set(re.findall(r"\bERR_PTR\(\s*-(E[A-Z0-9]+)\b", body))
    returned = set(re.findall(r"\breturn\s+(\w+)\s*;", body))
    for var, code_ in re.findall(r"\b(\w+)\s*=\s*-(E[A-Z0-9]+)\b", body):
        if var in returned:
            codes.add(code_)
    return sorted(codes)


def page_sections(path):
    secs, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith(".SH "):
            cur = line[4:].strip().strip('"')
            secs[cur] = []
        elif cur:
            secs[cur].append(line)
    return secs


def text_of(lines):
    t = " ".join(l for l in lines if not l.startswith((".IP", ".PP", ".B")))
    return re.sub(r"\\f[BIPR]", "", t).replace("\\-", "-").strip()


def synopsis(lines):
    ret, params = None, []
    for l in lines:
        m = re.match(r'\.B "([^"]*)" (\w+)', l)
        if m:
            ret = norm_type(m.group(1))
            continue
        m = re.match(r'\.BI "\(?(.*?)\s*"', l)
        if m:
            params.append(m.group(1))
    return ret, split_params(",".join(p for p in params if p not in ("", "void")))


def check(name, src, headers, pagedir):
    sub = "tests/" if src.startswith(("tests/", "samples/")) else ""
    path = os.path.join(pagedir, sub + name + ".9")
    if not os.path.isfile(path):
        finding(name, f"no manual page {sub}{name}.9")
        return
    code = strip_comments(open(os.path.join(root, src)).read())
    d = definition(code, name)
    if not d:
        finding(name, f"no definition found in {src}")
        return
    ret, params, body = d
    secs = page_sections(path)
    for s in REQUIRED:
        if s not in secs:
            finding(name, f"page has no {s} section")
        elif s not in ("ARGUMENTS", "SYNOPSIS") and not text_of(secs[s]):
            finding(name, f"page's {s} section is empty")
    if "NAME" in secs and not re.match(
            re.escape(name) + r" - \S", text_of(secs["NAME"])):
        finding(name, "NAME is not 'name - purpose'")

    s_ret, s_params = synopsis(secs.get("SYNOPSIS", []))
    args = [re.match(r'\.IP "([^"]*)"', l).group(1)
            for l in secs.get("ARGUMENTS", []) if l.startswith(".IP ")]
    if s_ret != ret:
        finding(name, f"SYNOPSIS returns '{s_ret}', the code '{ret}'")
    if s_params != params:
        finding(name, f"SYNOPSIS parameters {s_params}, the code's {params}")
    if args != params:
        finding(name, f"ARGUMENTS {args}, the prototype's {params}")
    if params and "ARGUMENTS" in secs and not text_of(secs["ARGUMENTS"]):
        finding(name, "ARGUMENTS describe nothing")
    if not sub:
        decl = declaration(headers, name)
        if not decl:
            finding(name, "not declared in a public header (include/)")
        elif decl[1] != ret or decl[2] != params:
            finding(name, f"{decl[0]} declares '{decl[1]}' {decl[2]}, "
                    f"the definition '{ret}' {params}")

    rtext = text_of(secs.get("RETURN", []))
    says_nothing = re.match(r"(nothing|no value)\b", rtext, re.I)
    if ret == "void":
        if rtext and not says_nothing:
            finding(name, "void function whose RETURN does not say "
                    "it returns nothing")
    else:
        if says_nothing:
            finding(name, f"returns {ret} but RETURN says nothing")
        for code_ in returned_errors(body):
            if not re.search(r"-" + code_ + r"\b", rtext):
                finding(name, f"the body returns -{code_}; RETURN does "
                        f"not name it")
        if ret.endswith("*"):
            if re.search(r"\breturn\s+NULL\s*;", body) and "NULL" not in rtext:
                finding(name, "the body returns NULL; RETURN does not say so")
            if "ERR_PTR" in body and "ERR_PTR" not in rtext:
                finding(name, "the body returns ERR_PTR; RETURN does not say so")

    ctext = text_of(secs.get("CONTEXT", []))
    m = SLEEPS.search(body)
    if m and not re.search(r"sleep|process context", ctext, re.I):
        finding(name, f"the body sleeps ({m.group(1)}); CONTEXT does not "
                "say it may sleep")
    if m and re.search(r"\bany context|\batomic\b", ctext, re.I):
        finding(name, f"the body sleeps ({m.group(1)}); CONTEXT claims "
                f"'{ctext}'")

    for ref in re.findall(r"\\fB(madcm_\w+)\\fP\(9\)",
                          "\n".join(secs.get("SEE ALSO", []))):
        if not (os.path.isfile(os.path.join(pagedir, ref + ".9")) or
                os.path.isfile(os.path.join(pagedir, "tests", ref + ".9"))):
            finding(name, f"SEE ALSO names {ref}(9), which has no page")


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} PAGEDIR")
    pagedir = sys.argv[1]
    headers = git_files("include/*.h")
    exports = {}
    for src in git_files("*.c"):
        for n in re.findall(r"^EXPORT_SYMBOL_GPL\((\w+)\);",
                            open(os.path.join(root, src)).read(), re.M):
            exports[n] = src
    if not exports:
        finding("exports", "none found")
    for n, src in sorted(exports.items()):
        check(n, src, headers, pagedir)
    for sub in ("", "tests"):
        d = os.path.join(pagedir, sub)
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f.endswith(".9") and f[:-2] not in exports:
                finding(f[:-2], f"page {sub}/{f} for no export")
    for f in findings:
        print(f)
    print(f"man-check: {len(exports)} exports, {len(findings)} findings",
          file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
