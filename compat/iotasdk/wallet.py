"""Reads the API as a wallet does, with IOTA's official SDK (iota-sdk, pinned in
requirements.txt), and checks every answer against expectations the Go test wrote from
the data: single reads (blocks, outputs, milestones, node info) and the batch calls a
wallet sync sends all at once (Client.get_outputs, Client.find_blocks).

usage: python wallet.py EXPECTATIONS.json

Prints one MISMATCH line per failed check, one "batch" line per batch call with its
latency, and a summary "N passed, M mismatched"; exits 1 on any mismatch, 2 on unusable
input.
"""

import json
import sys
import time

from iota_sdk import Client, OutputId, Utils


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"MISMATCH {name}: {detail}")

    def run(self, name, fn):
        """Runs fn, a check of its own; an exception (a refusal, a parse error) fails it."""
        try:
            fn()
        except Exception as e:  # the SDK raises its node's errors as plain exceptions
            self.check(name, False, f"raised {str(e)[:300]}")


def hex_bytes(ints):
    return "0x" + bytes(ints).hex()


def single_reads(c, client, exp):
    info = client.get_info().nodeInfo
    want = exp["info"]
    got = {"networkName": info.protocol.networkName, "bech32Hrp": info.protocol.bech32Hrp,
           "tokenSupply": info.protocol.tokenSupply, "latestMilestoneIndex": info.status.latestMilestone.index,
           "latestMilestoneId": info.status.latestMilestone.milestoneId, "isHealthy": info.status.isHealthy}
    c.check("info", got == want, f"got {got}, want {want}")
    for b in exp["blocks"]:
        c.run(f"block {b['id']}", lambda b=b: read_block(c, client, b))
    for o in exp["outputs"]:
        c.run(f"output {o['id']}", lambda o=o: read_output(c, client, o))
    for m in exp["milestones"]:
        c.run(f"milestone {m['index']}", lambda m=m: read_milestone(c, client, m))


def read_block(c, client, b):
    raw = hex_bytes(client.get_block_raw(b["id"]))
    c.check(f"block {b['id']} bytes", raw == b["hex"], f"got {raw[:80]}..., want {b['hex'][:80]}...")
    block = client.get_block_data(b["id"])
    c.check(f"block {b['id']} id from its JSON", Utils.block_id(block) == b["id"], Utils.block_id(block))
    md = client.get_block_metadata(b["id"])
    c.check(f"block {b['id']} metadata", md.blockId == b["id"] and md.referencedByMilestoneIndex == b["referencedBy"],
            f"{md.blockId} referenced by {md.referencedByMilestoneIndex}, want {b['referencedBy']}")


def read_output(c, client, o):
    got = client.get_output(o["id"])
    md = got.metadata
    oid = Utils.compute_output_id(md.transactionId, md.outputIndex)
    oid = oid.output_id if isinstance(oid, OutputId) else str(oid)
    c.check(f"output {o['id']} id", oid == o["id"], oid)
    c.check(f"output {o['id']} metadata", md.blockId == o["blockId"] and md.isSpent == o["isSpent"] and
            md.milestoneIndexBooked == o["milestoneIndexBooked"],
            f"block {md.blockId} spent {md.isSpent} booked {md.milestoneIndexBooked}, want {o}")
    c.check(f"output {o['id']} amount and type", str(got.output.amount) == o["amount"] and got.output.type == o["type"],
            f"amount {got.output.amount} type {got.output.type}, want {o['amount']} {o['type']}")


def read_milestone(c, client, m):
    by_index = hex_bytes(client.get_milestone_by_index_raw(m["index"]))
    by_id = hex_bytes(client.get_milestone_by_id_raw(m["id"]))
    c.check(f"milestone {m['index']} bytes", by_index == m["hex"] and by_id == m["hex"], by_index[:80])
    payload = client.get_milestone_by_index(m["index"])
    c.check(f"milestone {m['index']} index", payload.index == m["index"], payload.index)


def batches(c, client, exp, label):
    ids = exp["batchOutputs"]
    start = time.monotonic()
    try:
        outputs = client.get_outputs([OutputId.from_string(i) for i in ids])
    except Exception as e:
        c.check(f"{label} get_outputs over {len(ids)}", False, f"raised {str(e)[:300]}")
    else:
        took = time.monotonic() - start
        print(f"batch {label} get_outputs: {len(ids)} outputs ({len(set(ids))} distinct) in {took * 1000:.0f} ms")
        got = [Utils.compute_output_id(o.metadata.transactionId, o.metadata.outputIndex) for o in outputs]
        got = [g.output_id if isinstance(g, OutputId) else str(g) for g in got]
        c.check(f"{label} get_outputs over {len(ids)}", got == ids, f"{len(got)} answered, ids in order: {got == ids}")
    ids = exp["batchBlocks"]
    start = time.monotonic()
    try:
        blocks = client.find_blocks(ids)
    except Exception as e:
        c.check(f"{label} find_blocks over {len(ids)}", False, f"raised {str(e)[:300]}")
    else:
        took = time.monotonic() - start
        print(f"batch {label} find_blocks: {len(ids)} blocks in {took * 1000:.0f} ms")
        got = sorted(Utils.block_id(b) for b in blocks)
        c.check(f"{label} find_blocks over {len(ids)}", got == sorted(ids), f"{len(got)} answered")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    with open(sys.argv[1]) as f:
        exp = json.load(f)
    if not exp.get("real", {}).get("blocks"):
        print("no expectations")
        sys.exit(2)
    c = Checks()
    for label in ("real", "sim"):
        if label not in exp:
            continue
        client = Client(nodes=[exp[label]["url"]])
        batches(c, client, exp[label], label)
        if label == "real":
            single_reads(c, client, exp[label])
    print(f"{c.passed} passed, {c.failed} mismatched")
    sys.exit(1 if c.failed else 0)


if __name__ == "__main__":
    main()
