#!/usr/bin/env node
// Checks TIP-25 JSON documents with IOTA's own client, @iota/iota.js (the version pinned in
// package.json). Input: a JSON array of {name, kind, json, hex, id?} from the file named as
// the only argument, or from stdin ("-" or no argument). kind is "block", "output" or
// "milestone"; hex the expected serialization (0x...); id, if present, the expected block or
// milestone ID. For each document iota.js serializes json and must produce hex exactly,
// deserializes hex and must give json back, and computes the ID. Exit 0 when every document
// matches, 1 on any mismatch, 2 on unusable input.
"use strict";

const fs = require("fs");
const iota = require("@iota/iota.js");
const { WriteStream, ReadStream, Converter } = require("@iota/util.js");

const KINDS = {
    block: { ser: iota.serializeBlock, de: iota.deserializeBlock, id: (j) => iota.TransactionHelper.calculateBlockId(j) },
    output: { ser: iota.serializeOutput, de: iota.deserializeOutput },
    milestone: { ser: iota.serializeMilestonePayload, de: iota.deserializeMilestonePayload, id: iota.milestoneIdFromMilestonePayload }
};

// Optional parts that nodes omit when empty but iota.js's deserializers spell out: milestone
// metadata as "0x" and options as [], tagged-data tag/data as "" (and undefined elsewhere,
// which JSON drops). Only these keys are treated as absent when empty, so a missing
// required list or field still shows up as a mismatch.
const OPTIONAL = new Set(["metadata", "options", "tag", "data", "stateMetadata", "nativeTokens", "features",
    "immutableFeatures", "payload"]);

function normalize(v) {
    if (Array.isArray(v)) {
        return v.map(normalize);
    }
    if (v === null || typeof v !== "object") {
        return v;
    }
    const out = {};
    for (const [k, x] of Object.entries(v)) {
        const empty = x === undefined || x === "" || x === "0x" || (Array.isArray(x) && x.length === 0);
        if (!(OPTIONAL.has(k) && empty) && x !== undefined) {
            out[k] = normalize(x);
        }
    }
    return out;
}

// diff lists the paths where a (what iota.js produced) and b (the document) differ.
function diff(a, b, path, out) {
    if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
        out.push(`${path}: iota.js ${JSON.stringify(a)}, document ${JSON.stringify(b)}`);
    } else if (Array.isArray(a)) {
        if (a.length !== b.length) {
            out.push(`${path}: iota.js has ${a.length} items, document ${b.length}`);
        }
        for (let i = 0; i < Math.min(a.length, b.length); i++) {
            diff(a[i], b[i], `${path}[${i}]`, out);
        }
    } else if (a !== null && typeof a === "object") {
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
            if (!(k in a) || !(k in b)) {
                out.push(`${path}.${k}: only in ${k in a ? "iota.js" : "the document"}: ${JSON.stringify(k in a ? a[k] : b[k])}`);
            } else {
                diff(a[k], b[k], `${path}.${k}`, out);
            }
        }
    } else if (a !== b) {
        out.push(`${path}: iota.js ${JSON.stringify(a)}, document ${JSON.stringify(b)}`);
    }
    return out;
}

// byteDiff describes where two hex strings (no 0x) first differ, with the bytes around it.
function byteDiff(got, want) {
    let i = 0;
    while (i < got.length && i < want.length && got[i] === want[i]) {
        i++;
    }
    const at = Math.floor(i / 2);
    const around = (h) => h.slice(Math.max(0, 2 * at - 16), 2 * at + 32);
    return `iota.js wrote ${got.length / 2} bytes, expected ${want.length / 2}; first difference at byte ${at}: ` +
        `iota.js …${around(got)}…, expected …${around(want)}…`;
}

function serialize(kind, json) {
    const ws = new WriteStream();
    kind.ser(ws, json);
    return ws.finalHex();
}

function deserialize(kind, hex) {
    const rs = new ReadStream(Converter.hexToBytes(hex));
    const value = kind.de(rs);
    if (rs.unused() !== 0) {
        throw new Error(`${rs.unused()} bytes left unread`);
    }
    return value;
}

// check returns the problems iota.js finds with one document (none: it matches).
function check(doc) {
    const kind = KINDS[doc.kind];
    if (!kind || typeof doc.hex !== "string" || typeof doc.json !== "object") {
        return [`unusable document: want kind block|output|milestone, json object and hex string`];
    }
    const want = doc.hex.replace(/^0x/, "").toLowerCase();
    const problems = [];
    try {
        const got = serialize(kind, doc.json);
        if (got !== want) {
            problems.push(`serialize: ${byteDiff(got, want)}`);
        }
    } catch (e) {
        problems.push(`serialize threw: ${e.message}`);
    }
    try {
        const back = JSON.parse(JSON.stringify(deserialize(kind, want)));
        for (const d of diff(normalize(back), normalize(doc.json), doc.kind, [])) {
            problems.push(`deserialize: ${d}`);
        }
    } catch (e) {
        problems.push(`deserialize threw: ${e.message}`);
    }
    if (doc.id !== undefined && kind.id) {
        try {
            const id = kind.id(doc.json);
            if (id !== doc.id) {
                problems.push(`id: iota.js computes ${id}, expected ${doc.id}`);
            }
        } catch (e) {
            problems.push(`id threw: ${e.message}`);
        }
    }
    return problems;
}

function main() {
    const file = process.argv[2];
    let docs;
    try {
        docs = JSON.parse(fs.readFileSync(file && file !== "-" ? file : 0, "utf8"));
        if (!Array.isArray(docs) || docs.length === 0) {
            throw new Error("want a non-empty JSON array of documents"); // checking nothing is no pass
        }
    } catch (e) {
        console.error(`iota.js check: unusable input: ${e.message}`);
        return 2;
    }
    const counts = {};
    let failed = 0;
    for (const doc of docs) {
        counts[doc.kind] = (counts[doc.kind] ?? 0) + 1;
        const problems = check(doc);
        if (problems.length > 0) {
            failed++;
            console.log(`MISMATCH ${doc.kind} ${doc.name}:`);
            problems.forEach((p) => console.log(`  ${p}`));
        }
    }
    const version = require("@iota/iota.js/package.json").version;
    const what = Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(", ");
    console.log(`iota.js ${version}: ${docs.length} documents (${what}): ${docs.length - failed} matched, ${failed} mismatched`);
    return failed > 0 ? 1 : 0;
}

process.exitCode = main();
