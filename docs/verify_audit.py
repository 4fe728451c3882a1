#!/usr/bin/env python3
"""Offline checks of mediactl's audit proofs, with hashlib and PyPI's `cryptography` only (no mediactl code).

    verify_audit.py proof VERIFIER_KEY PROOF_FILE LINE_FILE
        PROOF_FILE is `mediactl audit prove` output (C2SP tlog-proof); LINE_FILE holds the record's line as written
        in the audit log. Checks the record's `hash` (SHA-256 of the line without its `,"hash":"…"` member), the
        checkpoint's signature and the record's inclusion (RFC 9162 §2.1.3.2; the leaf's entry is the record's
        `hash`, 32 bytes).
    verify_audit.py consistency VERIFIER_KEY OLD_CHECKPOINT NEW_CHECKPOINT PROOF_FILE
        PROOF_FILE holds the base64 hashes `mediactl audit consistency` printed, one a line (its last line, the
        verdict, is ignored). Checks both signatures and the consistency proof (RFC 9162 §2.1.4.2).
    verify_audit.py receipt VERIFIER_KEY RECEIPT_FILE
        RECEIPT_FILE is `mediactl purge --receipt` output. Checks the receipt's signature (over its canonical JSON), its
        checkpoint's signature, its record's hash, that the record is the summary of a purge of the receipt's
        partition, and the record's inclusion in the checkpoint's tree.

Prints `ok: …` and exits 0, or prints the reason and exits 1.
"""
import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def leaf_hash(data):
    return hashlib.sha256(b"\x00" + data).digest()


def record_leaf(line):
    """The leaf hash of a record's line: its `hash` checked against the line, then SHA-256(0x00 || hash)."""
    text = line.decode("utf-8")
    digest = json.loads(text)["hash"]
    member = ',"hash":"%s"' % digest
    if text.count(member) != 1 or hashlib.sha256(text.replace(member, "", 1).encode("utf-8")).hexdigest() != digest:
        raise ValueError("the record's hash is not the SHA-256 of its line")
    return leaf_hash(bytes.fromhex(digest))


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def open_note(note, verifier_key):
    """The text of a C2SP signed note signed by verifier_key (`name+keyid+base64(0x01||key)`)."""
    name, key_id, key = verifier_key.split("+", 2)
    raw = base64.b64decode(key)
    if len(raw) != 33 or raw[0] != 1:
        raise ValueError("the verifier key is not an Ed25519 key")
    if hashlib.sha256(name.encode() + b"\n" + raw).digest()[:4].hex() != key_id:
        raise ValueError("the verifier key's ID does not match")
    text, _, signatures = note.rpartition("\n\n")
    text += "\n"
    public_key = Ed25519PublicKey.from_public_bytes(raw[1:])
    for line in signatures.splitlines():
        prefix = "\u2014 " + name + " "
        if not line.startswith(prefix):
            continue
        blob = base64.b64decode(line[len(prefix):])
        if blob[:4].hex() != key_id:
            continue
        try:
            public_key.verify(blob[4:], text.encode())
            return text
        except InvalidSignature:
            raise ValueError("the signature does not verify")
    raise ValueError("no signature of " + name)


def checkpoint(text):
    origin, size, root = text.split("\n")[:3]
    return origin, int(size), base64.b64decode(root)


def verify_inclusion(leaf, index, size, proof, root):
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(old_size, old_root, new_size, new_root, proof):
    if old_size == new_size:
        return not proof and old_root == new_root
    if not proof or old_size > new_size:
        return False
    if old_size & (old_size - 1) == 0:
        proof = [old_root] + proof
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == old_root and sr == new_root


def main(argv):
    try:
        if len(argv) == 5 and argv[1] == "proof":
            text = open(argv[3], encoding="utf-8").read()
            head, _, note = text.partition("\n\n")
            lines = head.split("\n")
            if lines[0] != "c2sp.org/tlog-proof@v1":
                raise ValueError("not a tlog proof")
            rest = [line for line in lines[1:] if not line.startswith("extra ")]
            index = int(rest[0].removeprefix("index "))
            proof = [base64.b64decode(line) for line in rest[1:]]
            _, size, root = checkpoint(open_note(note, argv[2]))
            line = open(argv[4], "rb").read().rstrip(b"\n")
            if not verify_inclusion(record_leaf(line), index, size, proof, root):
                raise ValueError("the record is not at index %d of the checkpoint's tree" % index)
            print("ok: record %d is in the log of %d records" % (index, size))
        elif len(argv) == 6 and argv[1] == "consistency":
            _, old_size, old_root = checkpoint(open_note(open(argv[3], encoding="utf-8").read(), argv[2]))
            _, new_size, new_root = checkpoint(open_note(open(argv[4], encoding="utf-8").read(), argv[2]))
            proof = [base64.b64decode(line) for line in open(argv[5], encoding="utf-8").read().split("\n")
                     if line and not line.startswith("consistent")]
            if not verify_consistency(old_size, old_root, new_size, new_root, proof):
                raise ValueError("the checkpoint of %d records does not extend the one of %d" % (new_size, old_size))
            print("ok: %d extends %d" % (new_size, old_size))
        elif len(argv) == 4 and argv[1] == "receipt":
            document = json.loads(open(argv[3], encoding="utf-8").read())
            receipt = document["receipt"]
            canonical = json.dumps(receipt, sort_keys=True, separators=(",", ":"))
            open_note(canonical + "\n\n" + document["signature"] + "\n", argv[2])
            _, size, root = checkpoint(open_note(receipt["checkpoint"], argv[2]))
            record = json.loads(receipt["record"])
            if record["seq"] != receipt["index"] + 1 or record["event"] != "purge" or record["key"] is not None \
                    or record["partition"] != receipt["partition"] or record["reason"] != receipt["reason"]:
                raise ValueError("the receipt's record is not the summary of a purge of its partition")
            proof = [base64.b64decode(item) for item in receipt["proof"]]
            if not verify_inclusion(record_leaf(receipt["record"].encode("utf-8")), receipt["index"], size, proof, root):
                raise ValueError("the purge record is not at index %d of the checkpoint's tree" % receipt["index"])
            print("ok: the purge of partition %s… (record %d) is in the log of %d records"
                  % (receipt["partition"][:16], record["seq"], size))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (ValueError, OSError, KeyError, TypeError) as error:
        print("failed: %s" % error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
