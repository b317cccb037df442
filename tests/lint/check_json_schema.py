# SPDX-License-Identifier: GPL-2.0-or-later
"""Every JSON line ulb-lint writes fits the documented schema.

The schema is docs/ulb-lint-json.schema.json (JSON Schema, the subset this
script validates: $ref, oneOf, type, const, enum, required, properties,
additionalProperties, propertyNames, items, minItems, maxItems, minimum,
minLength, pattern; any other keyword is refused, so the schema cannot say
more than is checked).  docs/ulb-lint-json.md must name the same schema
number.  For every capture given, `ulb-lint --format json --summary` must
write only lines that fit, as many finding lines as the text output has
findings, and one summary line last; as root, a live run on lo (its
summary has the capture member) must fit too.  A capture whose file name is
not UTF-8 (byte 0xff) must still give lines that are UTF-8 JSON, the name's
bad byte as U+FFFD.  Every finding's frames must be ascending, each once
(the documentation says so; the schema cannot).  The validator is tried on
lines made wrong on purpose first, so that a validator that accepts
everything fails here.
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

KNOWN = {"$schema", "title", "description", "$defs", "$ref", "oneOf", "type", "const", "enum", "required",
         "properties", "additionalProperties", "propertyNames", "items", "minItems", "maxItems", "minimum",
         "minLength", "pattern"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def type_ok(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def validate(root, s, v, path="$"):
    """Errors of v against schema s (a list of strings; empty when it fits)."""
    unknown = set(s) - KNOWN
    if unknown:
        raise SystemExit("schema keyword(s) this checker does not implement: %s" % sorted(unknown))
    if "$ref" in s:
        node = root
        for part in s["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return validate(root, node, v, path)
    if "oneOf" in s:
        errs = [validate(root, sub, v, path) for sub in s["oneOf"]]
        fits = sum(not e for e in errs)
        if fits == 1:
            return []
        why = "; ".join(min(errs, key=len)[:3]) if not fits else "it fits more than one"
        return ["%s: fits %d of the oneOf branches, not 1 (%s)" % (path, fits, why)]
    errs = []
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(type_ok(v, t) for t in ts):
            return ["%s: %r is not of type %s" % (path, v, "/".join(ts))]
    if "const" in s and v != s["const"]:
        errs.append("%s: %r is not %r" % (path, v, s["const"]))
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r is not one of %s" % (path, v, s["enum"]))
    if isinstance(v, str):
        if "pattern" in s and not re.search(s["pattern"], v):
            errs.append("%s: %r does not match %s" % (path, v, s["pattern"]))
        if len(v) < s.get("minLength", 0):
            errs.append("%s: too short" % path)
    if isinstance(v, (int, float)) and not isinstance(v, bool) and "minimum" in s and v < s["minimum"]:
        errs.append("%s: %r is below %r" % (path, v, s["minimum"]))
    if isinstance(v, list):
        if len(v) < s.get("minItems", 0) or len(v) > s.get("maxItems", len(v)):
            errs.append("%s: %d items" % (path, len(v)))
        for i, item in enumerate(v):
            errs += validate(root, s.get("items", {}), item, "%s[%d]" % (path, i))
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: no member %s" % (path, k))
        props = s.get("properties", {})
        for k, item in v.items():
            if "propertyNames" in s:
                errs += validate(root, s["propertyNames"], k, "%s (name %s)" % (path, k))
            if k in props:
                errs += validate(root, props[k], item, "%s.%s" % (path, k))
            elif s.get("additionalProperties") is False:
                errs.append("%s: member %s is not in the schema" % (path, k))
            elif isinstance(s.get("additionalProperties"), dict):
                errs += validate(root, s["additionalProperties"], item, "%s.%s" % (path, k))
    return errs


def self_test(schema, finding, summary):
    """Lines made wrong on purpose must be refused."""
    wrong = []
    for mutate in (lambda d: d.pop("schema"), lambda d: d.update(schema=2), lambda d: d.update(severity="fatal"),
                   lambda d: d.update(xid="27aab4aa"), lambda d: d.update(frames=["1"]),
                   lambda d: d.update(extra=1), lambda d: d.update(conn=0)):
        d = copy.deepcopy(finding)
        mutate(d)
        wrong.append(d)
    for mutate in (lambda d: d["summary"].pop("loss"), lambda d: d["summary"]["skipped"].update(cut=1),
                   lambda d: d["summary"]["rules"].update({"XX-1": 1})):
        d = copy.deepcopy(summary)
        mutate(d)
        wrong.append(d)
    passed = [d for d in wrong if not validate(schema, schema, d)]
    if passed:
        raise SystemExit("the validator accepts a wrong line: %s" % json.dumps(passed[0]))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode()[-2000:]))
    return p.stdout.decode()


def check_lines(schema, what, out, n_text):
    lines = [json.loads(l) for l in out.splitlines() if l.strip()]
    bad = 0
    for i, d in enumerate(lines):
        for e in validate(schema, schema, d):
            print("FAIL: %s line %d: %s" % (what, i + 1, e))
            bad += 1
        # What the schema cannot say and docs/ulb-lint-json.md does: frames ascending, each once.
        fr = d.get("frames", [])
        if any(a >= b for a, b in zip(fr, fr[1:])):
            print("FAIL: %s line %d: frames %s are not ascending" % (what, i + 1, fr))
            bad += 1
    if not lines or "summary" not in lines[-1] or sum("summary" in d for d in lines) != 1:
        print("FAIL: %s: not one summary line last" % what)
        bad += 1
    if n_text is not None and len(lines) - 1 != n_text:
        print("FAIL: %s: %d finding lines in JSON, %d in text" % (what, len(lines) - 1, n_text))
        bad += 1
    return bad, lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    schema = json.load(open(a.schema))
    number = schema["$defs"]["finding"]["properties"]["schema"]["const"]
    if not re.search(r"^## Schema %d\b" % number, open(a.doc).read(), re.M):
        print("FAIL: %s does not describe schema %d (a heading '## Schema %d')" % (a.doc, number, number))
        return 1
    bad = findings = 0
    sample = {}
    for cap in a.captures:
        n_text = len(run([a.lint, "-q", "--cap-lines", "0", cap]).splitlines())
        b, lines = check_lines(schema, cap, run([a.lint, "-q", "--format", "json", "--summary", cap]), n_text)
        bad += b
        findings += len(lines) - 1
        for d in lines:
            sample.setdefault("summary" if "summary" in d else "finding", d)
    if os.geteuid() == 0:
        b, lines = check_lines(schema, "ulb-lint -i lo",
                               run([a.lint, "-q", "--format", "json", "--summary", "-i", "lo", "--duration", "0.3"]),
                               None)
        bad += b
        if "capture" not in lines[-1]["summary"]:
            print("FAIL: the live run's summary has no capture member")
            bad += 1
    with tempfile.TemporaryDirectory(prefix="rr-json-") as d:
        odd = os.path.join(os.fsencode(d), b"name-\xff.pcap")
        shutil.copyfile(a.captures[0], odd)
        try:
            b, lines = check_lines(schema, "a name that is not UTF-8", run([a.lint, "-q", "--format", "json",
                                                                          "--summary", odd]), None)
            bad += b
            if not all("\ufffd" in d.get("file", d.get("summary", {}).get("file", "\ufffd")) for d in lines):
                print("FAIL: a name that is not UTF-8: its bad byte is not U+FFFD in every line")
                bad += 1
        except UnicodeDecodeError as e:
            print("FAIL: a name that is not UTF-8: the output is not UTF-8 (%s)" % e)
            bad += 1
    if "finding" not in sample:
        print("FAIL: no capture gave a finding to check")
        return 1
    self_test(schema, sample["finding"], sample["summary"])
    print("%d captures, %d finding lines and %d summary lines fit schema %d; %d errors" %
          (len(a.captures), findings, len(a.captures), number, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
