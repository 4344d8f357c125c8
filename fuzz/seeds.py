#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora into fuzz/seeds/<target>/ from what the project already has:
the app's example gallery (src/page/examples.rs, read as text), the
conformance corpus (configs, states, changes, schemas, DOT), the real-world configurations, the
bad-input corpus, and DOT files made by `tfgraph graph` (given as extra files on the command line).
Called by scripts/fuzz; idempotent (files are named by content hash)."""

import glob
import hashlib
import base64
import json
import os
import re
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "seeds")
# ../shared beside the repository, unless the environment says otherwise.
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
CONF = os.environ.get("TFGRAPH_CONFORMANCE", os.path.join(SHARED, "conformance"))
REAL = os.environ.get("TFGRAPH_REALWORLD", os.path.join(SHARED, "realworld"))
MAX_LEN = 65536
# Must match tfgraph_fuzz::CONFIG_FILES (fuzz/src/lib.rs): the NUL-separated slots.
SLOTS = ["main.tf", "variables.tf", "outputs.tf", "main.tf.json",
         "modules/x/main.tf", "modules/x/variables.tf", "override.tf"]
counts = {}


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > MAX_LEN:
        return
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    path = os.path.join(d, name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
    counts[target] = counts.get(target, 0) + 1


# The configuration targets, one per builder (fuzz/src/lib.rs `config_target!`): same seeds.
CONFIG_TARGETS = ["config_plan", "config_apply", "config_validate", "config_plan_destroy",
                  "config_plan_refresh_only"]


def put_config(data):
    for t in CONFIG_TARGETS:
        put(t, data)


def config_seed(files):
    """files: {slot name: text} -> NUL-separated input."""
    parts = [files.get(s, "") for s in SLOTS]
    while parts and not parts[-1]:
        parts.pop()
    return "\0".join(parts)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def folder_seed(folder):
    """A module folder: root .tf files in main.tf (overrides in override.tf), .tf.json in
    main.tf.json, the first local module's files in modules/x/ (its source rewritten)."""
    main, over, js = [], [], []
    for p in sorted(glob.glob(os.path.join(folder, "*.tf"))):
        (over if re.search(r"(^|_)override\.tf$", os.path.basename(p)) else main).append(read(p))
    for p in sorted(glob.glob(os.path.join(folder, "*.tf.json")))[:1]:
        js.append(read(p))
    files = {"main.tf": "\n".join(main), "override.tf": "\n".join(over), "main.tf.json": "".join(js)}
    subs = sorted(d for d in glob.glob(os.path.join(folder, "*", "")) if glob.glob(d + "*.tf"))
    if subs:
        sub = subs[0].rstrip("/")
        rel = os.path.basename(sub)
        files["main.tf"] = re.sub(r'source\s*=\s*"\./' + re.escape(rel) + '"',
                                  'source = "./modules/x"', files["main.tf"])
        files["modules/x/main.tf"] = "\n".join(read(p) for p in sorted(glob.glob(sub + "/*.tf")))
    return config_seed(files)


def examples():
    """The gallery's files, read from the Rust source: ("path", r#"..."#) pairs and the EXAMPLE
    constant that the first example uses."""
    src = read(os.path.join(ROOT, "src/page/examples.rs"))
    m = re.search(r'pub const EXAMPLE: &str = r#"(.*?)"#;', src, re.S)
    base = m.group(1) if m else ""
    out = []
    for ex in re.split(r"\n    Example \{", src)[1:]:
        files = {}
        for path, text in re.findall(r'\(\s*"([^"]+)",\s*r#"(.*?)"#,?\s*\)', ex, re.S):
            files[path] = text
        if '("main.tf", EXAMPLE)' in ex:
            files["main.tf"] = base
        if files:
            out.append(files)
    return out


def main(extra_dot):
    # config_* (one target per builder)
    for files in examples():
        slots = {"main.tf": "", "main.tf.json": ""}
        mods = {}
        for path, text in files.items():
            if path.endswith(".tfstate"):
                put("state_json", text)
            elif not path.endswith((".tf", ".tf.json")):
                continue
            elif path.endswith(".tf.json"):
                slots["main.tf.json"] += text
            elif "/" in path:
                mods.setdefault(os.path.dirname(path), []).append(text)
            else:
                slots["main.tf"] += text + "\n"
        if mods:
            d = sorted(mods)[0]
            slots["main.tf"] = re.sub(r'source\s*=\s*"\./' + re.escape(d) + '"',
                                      'source = "./modules/x"', slots["main.tf"])
            slots["modules/x/main.tf"] = "\n".join(mods[d])
        put_config(config_seed(slots))
        # share_link: the first byte is the mode (0: a fragment as is, 2: JSON that the target
        # deflates and encodes itself).
        text = json.dumps(files, separators=(",", ":")).encode()
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        packed = c.compress(text) + c.flush()
        put("share_link", b"\x00v1." + base64.urlsafe_b64encode(packed).rstrip(b"="))
        put("share_link", b"\x02" + text)
        # restore_round_trip: 0 = the fragment as is, 2 = bytes the target deflates itself.
        put("restore_round_trip", b"\x00#v1." + base64.urlsafe_b64encode(packed).rstrip(b"="))
        put("restore_round_trip", b"\x02" + text)
        # var_files: terraform.tfvars NUL x.auto.tfvars.json NUL -var lines.
        for path, t in files.items():
            if path.endswith(".tfvars"):
                put("var_files", t)
            elif path.endswith(".tfvars.json"):
                put("var_files", "\0" + t)
    for cfg in sorted(glob.glob(os.path.join(CONF, "graph", "*", "config"))):
        put_config(folder_seed(cfg))
    for p in sorted(glob.glob(os.path.join(REAL, "**", "*.tf"), recursive=True)):
        put_config(read(p))
    for d in sorted({os.path.dirname(p) for p in glob.glob(os.path.join(REAL, "**", "*.tf"), recursive=True)}):
        put_config(folder_seed(d))
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "bad_inputs", "*.tf"))):
        put_config(read(p))
    # With request options (the eighth part).
    put_config("variable \"n\" {\n  type = number\n}\nresource \"a_b\" \"c\" {\n  count = var.n\n}\n"
        "resource \"a_b\" \"d\" {\n  x = a_b.c[0].id\n}\n" + "\0" * 7
        + "-var=n=3\n-target=a_b.d\n-exclude=a_b.c[1]\n")
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "bad_inputs", "*.tf.json"))):
        put_config("\0\0\0" + read(p))

    # state_json, plan_json (first byte: 0 = show -json, 1 = conformance changes), schemas_json
    for p in sorted(glob.glob(os.path.join(CONF, "graph", "*", "state.json"))):
        put("state_json", read(p))
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "bad_inputs", "*.tfstate"))):
        put("state_json", read(p))
    for p in sorted(glob.glob(os.path.join(CONF, "graph", "*", "schemas.json"))):
        put("schemas_json", read(p))
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "bad_inputs", "*.schemas.json"))):
        put("schemas_json", read(p))
    acts = {"create": ["create"], "update": ["update"], "delete": ["delete"], "read": ["read"],
            "no-op": ["no-op"], "forget": ["forget"], "delete-then-create": ["delete", "create"],
            "create-then-delete": ["create", "delete"]}
    for p in sorted(glob.glob(os.path.join(CONF, "graph", "*", "case.json"))):
        changes = json.load(open(p)).get("changes")
        if not changes:
            continue
        put("plan_json", "\x01" + json.dumps(changes, indent=1))
        show = {"format_version": "1.2", "resource_changes": []}
        for c in changes:
            rc = {"address": c.get("addr"), "change": {"actions": acts.get(c.get("action"), [])}}
            if "prev_run_addr" in c:
                rc["previous_address"] = c["prev_run_addr"]
            for k in ("deposed", "action_reason"):
                if k in c:
                    rc[k] = c[k]
            show["resource_changes"].append(rc)
        put("plan_json", "\x00" + json.dumps(show, indent=1))
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "bad_inputs", "*.plan.json"))):
        put("plan_json", "\x00" + read(p))

    # dot_import
    for p in sorted(glob.glob(os.path.join(CONF, "dot", "*.json"))):
        put("dot_import", json.load(open(p)).get("expected", ""))
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "bad_inputs", "*.dot"))) + extra_dot:
        put("dot_import", read(p))

    # dot_layout: the same DOT texts, laid out.
    for p in sorted(glob.glob(os.path.join(OUT, "dot_import", "*"))):
        with open(p, "rb") as f:
            put("dot_layout", f.read())

    # var_files and module_manifest: the variable files and manifests of the tests and the
    # real-world folders.
    put("var_files", 'region = "eu-west-1"\ncidrs = ["10.0.0.0/16"]\ntags = { a = 1 }\n'
        '\0{"count": 2, "nested": {"a": [1, 2]}}\0foo=bar\nn=3\nlist=["a"]\n')
    for p in sorted(glob.glob(os.path.join(REAL, "**", "*.tfvars"), recursive=True)) + \
            sorted(glob.glob(os.path.join(ROOT, "tests", "**", "*.tfvars"), recursive=True)):
        put("var_files", read(p))
    for p in sorted(glob.glob(os.path.join(REAL, "**", "*.tfvars.json"), recursive=True)):
        put("var_files", "\0" + read(p))
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "**", "modules.json"), recursive=True)) + \
            sorted(glob.glob(os.path.join(REAL, "**", "modules.json"), recursive=True)):
        put("module_manifest", read(p))
    put("module_manifest", json.dumps({"Modules": [
        {"Key": "", "Source": "", "Dir": "."},
        {"Key": "child", "Source": "./modules/child", "Dir": "modules/child"},
        {"Key": "vpc", "Source": "registry.terraform.io/terraform-aws-modules/vpc/aws",
         "Version": "5.8.1", "Dir": ".terraform/modules/vpc"}]}, indent=1))
    put("module_manifest", json.dumps({"Modules": [
        {"Key": "a.b", "Source": "git::https://example.com/m.git//sub?ref=v1", "Dir": ".terraform/modules/a.b"},
        {"Key": "a", "Source": "./a", "Dir": "a"},
        {"Key": "c", "Source": "registry.opentofu.org/ns/name/aws", "Version": "1.2.3-beta.1+meta",
         "Dir": ".terraform/modules/c"}]}))
    put("module_manifest", '{"Modules": [{"Key": "x", "Source": "./x", "Dir": "x"}, '
        '{"Key": "x", "Source": "./y", "Dir": "y"}]}')
    put("module_manifest", '{"Modules": [{"Key": "v", "Source": "hashicorp/consul/aws", '
        '"Version": "not.a.version", "Dir": "v"}]}')
    put("var_files", 'a = 1\nb = "two"\nc = [true, null]\nd = { "k" = var.x }\n'
        '\0{"a": 1, "b": [], "c": {"d": null}}\0a=1\nb={x=1}\nc\n=no-name\n')

    # Inputs that once crashed or hung (fuzz/regressions/TARGET/), replayed at every start.
    for p in sorted(glob.glob(os.path.join(ROOT, "fuzz", "regressions", "*", "*"))):
        with open(p, "rb") as f:
            put(os.path.basename(os.path.dirname(p)), f.read())

    for t in sorted(counts):
        print(f"[fuzz] seeds for {t}: {counts[t]}")


if __name__ == "__main__":
    main(sys.argv[1:])
