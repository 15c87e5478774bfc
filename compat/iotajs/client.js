#!/usr/bin/env node
// Talks to a running server with IOTA's own client, @iota/iota.js (the version pinned in
// package.json), as a wallet or explorer would, and checks every answer against a file of
// expectations. Usage: node client.js <base URL> <expectations.json>
//
// The expectations file is an object; each SECTION below reads its own key of it and runs
// its named checks (one client call and comparison each). Exit 0 when every check passes,
// 1 listing every mismatch, 2 on unusable input. Sections run only when their key is present,
// SingleNodeClient reads the core API (TIP-25, "core", and its receipts and treasury,
// "receipts"), IndexerPluginClient the indexer API (TIP-26, "indexer").
"use strict";

const fs = require("fs");
const iota = require("@iota/iota.js");
const { WriteStream, Converter } = require("@iota/util.js");

// ---- helpers ----------------------------------------------------------------------------

const hex = (bytes) => Converter.bytesToHex(bytes, true);

function serialize(fn, json) {
    const ws = new WriteStream();
    fn(ws, json);
    return hex(ws.finalBytes());
}

// canonical renders a JSON value with sorted keys, so equal objects print equal.
function canonical(v) {
    if (Array.isArray(v)) {
        return `[${v.map(canonical).join(",")}]`;
    }
    if (v !== null && typeof v === "object") {
        return `{${Object.keys(v).filter((k) => v[k] !== undefined).sort()
            .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
    }
    return JSON.stringify(v);
}

const sorted = (list) => [...list].sort();

// Check collects one check's findings: each want() that fails is a mismatch.
class Check {
    constructor(name) {
        this.name = name;
        this.problems = [];
    }

    want(ok, what) {
        if (!ok) {
            this.problems.push(what);
        }
    }

    same(what, got, expected) {
        const g = canonical(got);
        const e = canonical(expected);
        this.want(g === e, `${what}: got ${g}, want ${e}`);
    }

    // fails expects call to throw iota.js's ClientError with the given HTTP status, the
    // node's error code, and a message holding word.
    async fails(what, call, status, word) {
        try {
            const got = await call();
            this.want(false, `${what}: answered ${canonical(got)}, want HTTP ${status}`);
        } catch (err) {
            this.want(err instanceof iota.ClientError && err.httpStatus === status && err.code === String(status) &&
                String(err.message).includes(word),
            `${what}: ${err.name} status ${err.httpStatus} code ${err.code} "${err.message}", want ClientError ${status} saying "${word}"`);
        }
    }
}

// ---- the core API (TIP-25) through SingleNodeClient ---------------------------------------

// coreChecks lists the named checks of the core API; x is the "core" expectations:
// {info, healthy, routes, blocks: [{id, hex, metadata}], transactions: [{id, blockId}],
// milestones: [{index, id, hex, created, consumed}], outputs: [{id, hex, metadata}], unknownBlockId}.
function coreChecks(client, x) {
    const checks = [];
    const add = (name, run) => checks.push({ name, run });
    const blockHex = Object.fromEntries(x.blocks.map((b) => [b.id, b.hex]));

    add("health", async (c) => c.same("health()", await client.health(), x.healthy));
    add("routes", async (c) => c.same("routes().routes", (await client.routes()).routes, x.routes));
    add("info", async (c) => {
        const info = await client.info();
        c.same("info() expected fields", pick(info, x.info), x.info);
        c.same("protocolInfo()", await client.protocolInfo(), x.info.protocol);
    });
    for (const b of x.blocks) {
        add(`block ${b.id}`, async (c) => {
            c.same("serializeBlock(block())", serialize(iota.serializeBlock, await client.block(b.id)), b.hex);
            c.same("blockRaw()", hex(await client.blockRaw(b.id)), b.hex);
            c.same("blockMetadata()", await client.blockMetadata(b.id), b.metadata);
        });
    }
    for (const t of x.transactions) {
        add(`transaction ${t.id}`, async (c) => {
            const block = await client.transactionIncludedBlock(t.id);
            c.same("serializeBlock(transactionIncludedBlock())", serialize(iota.serializeBlock, block), blockHex[t.blockId]);
            c.same("transactionIncludedBlockRaw()", hex(await client.transactionIncludedBlockRaw(t.id)), blockHex[t.blockId]);
        });
    }
    for (const m of x.milestones) {
        add(`milestone ${m.index}`, async (c) => {
            const ser = (p) => serialize(iota.serializeMilestonePayload, p);
            c.same("serializeMilestonePayload(milestoneByIndex())", ser(await client.milestoneByIndex(m.index)), m.hex);
            c.same("serializeMilestonePayload(milestoneById())", ser(await client.milestoneById(m.id)), m.hex);
            c.same("milestoneByIndexRaw()", hex(await client.milestoneByIndexRaw(m.index)), m.hex);
            c.same("milestoneByIdRaw()", hex(await client.milestoneByIdRaw(m.id)), m.hex);
            c.same("milestoneId of the payload", iota.milestoneIdFromMilestonePayload(await client.milestoneById(m.id)), m.id);
            const want = { index: m.index, createdOutputs: sorted(m.created), consumedOutputs: sorted(m.consumed) };
            for (const [name, changes] of [["milestoneUtxoChangesById()", await client.milestoneUtxoChangesById(m.id)],
                ["milestoneUtxoChangesByIndex()", await client.milestoneUtxoChangesByIndex(m.index)]]) {
                c.same(name, { index: changes.index, createdOutputs: sorted(changes.createdOutputs),
                    consumedOutputs: sorted(changes.consumedOutputs) }, want);
            }
        });
    }
    for (const o of x.outputs) {
        add(`output ${o.id}`, async (c) => {
            const got = await client.output(o.id);
            c.same("serializeOutput(output().output)", serialize(iota.serializeOutput, got.output), o.hex);
            c.same("output().metadata", got.metadata, o.metadata);
            // coverage is the permanode's member beside TIP-25's (docs/core-api.md): iota.js
            // passes it through; every TIP-25 member must still be exactly the node's.
            const { coverage, ...meta } = await client.outputMetadata(o.id);
            c.same("outputMetadata()", meta, o.metadata);
            c.same("outputMetadata().coverage.ledgerIndex", coverage && coverage.ledgerIndex, o.metadata.ledgerIndex);
            c.same("outputRaw()", hex(await client.outputRaw(o.id)), o.hex);
        });
    }
    add("errors", async (c) => {
        await c.fails("block(unknown)", () => client.block(x.unknownBlockId), 404, "not indexed");
        await c.fails("blockMetadata(unknown)", () => client.blockMetadata(x.unknownBlockId), 404, "not indexed");
        await c.fails("block(malformed)", () => client.block("0x12"), 400, "blockId");
        await c.fails("tips()", () => client.tips(), 501, "permanode");
        await c.fails("peers()", () => client.peers(), 501, "permanode");
        // The real milestones carry no receipt and the keyspace has no bootstrap snapshot.
        c.same("receipts()", await client.receipts(), { receipts: [] });
        await c.fails("treasury()", () => client.treasury(), 404, "no treasury output");
        const someBlock = Converter.hexToBytes(x.blocks[0].hex);
        await c.fails("blockSubmitRaw()", () => client.blockSubmitRaw(someBlock), 501, "permanode");
    });
    return checks;
}

// pick keeps the parts of got that shape names (nested objects by their own keys).
function pick(got, shape) {
    if (shape === null || typeof shape !== "object" || Array.isArray(shape) || got === null || typeof got !== "object") {
        return got;
    }
    return Object.fromEntries(Object.keys(shape).map((k) => [k, pick(got[k], shape[k])]));
}

// ---- the indexer API (TIP-26) through IndexerPluginClient -----------------------------------

// INDEXER_OPTIONS maps a TIP-26 query parameter to iota.js's filter option of that name.
const INDEXER_OPTIONS = {
    address: "addressBech32", storageDepositReturnAddress: "storageDepositReturnAddressBech32",
    expirationReturnAddress: "expirationReturnAddressBech32", sender: "senderBech32", tag: "tagHex",
    issuer: "issuerBech32", stateController: "stateControllerBech32", governor: "governorBech32",
    aliasAddress: "aliasAddressBech32"
};

// filterOptions turns {TIP-26 name: value} into iota.js's filter options (booleans and
// numbers as iota.js's own callers pass them; it prints each into the query).
function filterOptions(params) {
    const out = {};
    for (const [name, value] of Object.entries(params)) {
        out[INDEXER_OPTIONS[name] ?? name] = value;
    }
    return out;
}

// walkPages follows a query's cursors to the end, as iota.js's own addressBalance does,
// and returns every item and the ledger indexes the pages named.
async function walkPages(query, options, c) {
    const items = [];
    const ledgerIndexes = new Set();
    let cursor;
    for (let pages = 0; pages < 10000; pages++) {
        const res = await query({ ...options, cursor });
        c.want(Array.isArray(res.items), `page ${pages}: items is not a list: ${canonical(res)}`);
        items.push(...res.items);
        ledgerIndexes.add(res.ledgerIndex);
        cursor = res.cursor;
        if (!cursor) {
            return { items, ledgerIndexes: [...ledgerIndexes] };
        }
        c.want(typeof cursor === "string" && /^[0-9a-f]{76}\.[0-9]+$/.test(cursor), `page ${pages}: cursor ${cursor} is not TIP-26's form`);
    }
    c.want(false, "more than 10000 pages");
    return { items, ledgerIndexes: [...ledgerIndexes] };
}

// indexerChecks lists the named checks of the indexer API; x is the "indexer" expectations:
// {ledgerIndex, queries: [{name, method, params, pageSize, want: [outputId]}],
// chains: [{method, id, want}], balances?: [{address, balance, nativeTokens}]}.
function indexerChecks(client, x) {
    const indexer = new iota.IndexerPluginClient(client);
    const checks = [];
    const add = (name, run) => checks.push({ name, run });
    for (const q of x.queries) {
        add(`${q.method} ${q.name} (pageSize ${q.pageSize})`, async (c) => {
            const options = { ...filterOptions(q.params), pageSize: q.pageSize };
            const got = await walkPages((o) => indexer[q.method](o), options, c);
            c.same("items over every page", got.items, q.want);
            c.same("ledgerIndex of the pages", got.ledgerIndexes, [x.ledgerIndex]);
        });
    }
    for (const ch of x.chains) {
        add(`${ch.method}(${ch.id})`, async (c) => {
            if (ch.want === null) {
                await c.fails(`${ch.method}(unknown)`, () => indexer[ch.method](ch.id), 404, "");
                return;
            }
            const res = await indexer[ch.method](ch.id);
            c.same("items", res.items, [ch.want]);
            c.same("ledgerIndex", res.ledgerIndex, x.ledgerIndex);
        });
    }
    for (const b of x.balances ?? []) {
        add(`addressBalance(${b.address})`, async (c) => {
            const got = await iota.addressBalance(client, b.address);
            const tokens = Object.fromEntries(Object.entries(got.nativeTokens).map(([id, v]) => [id, v.toString()]));
            c.same("balance", got.balance.toString(), b.balance);
            c.same("nativeTokens", tokens, b.nativeTokens);
            c.same("ledgerIndex", got.ledgerIndex, x.ledgerIndex);
        });
    }
    return checks;
}

// ---- sections and the run ---------------------------------------------------------------

// ---- receipts and the treasury (TIP-25) through SingleNodeClient ----------------------

// receiptsChecks: x.all lists every receipt as {milestoneIndex, hex} (the receipt milestone
// option serialized, type byte first), x.byMigratedAt the same per migratedAt, x.treasury
// the treasury answer. iota.js serializes each receipt it parsed: equal bytes mean every
// field came through as the node's own types.
function receiptsChecks(client, x) {
    const tuples = (r) => r.receipts.map((t) => ({
        milestoneIndex: t.milestoneIndex, hex: serialize(iota.serializeReceiptMilestoneOption, t.receipt)
    }));
    const checks = [
        { name: "receipts", run: async (c) => c.same("receipts()", tuples(await client.receipts()), x.all) },
        { name: "treasury", run: async (c) => c.same("treasury()", await client.treasury(), x.treasury) }
    ];
    for (const [at, want] of Object.entries(x.byMigratedAt)) {
        checks.push({ name: `receipts ${at}`,
            run: async (c) => c.same(`receipts(${at})`, tuples(await client.receipts(Number(at))), want) });
    }
    return checks;
}

// SECTIONS: each reads expectations[key] and lists its named checks against the base URL.
const SECTIONS = [
    { key: "core", client: "SingleNodeClient", checks: (url, x) => coreChecks(new iota.SingleNodeClient(url), x) },
    { key: "indexer", client: "IndexerPluginClient", checks: (url, x) => indexerChecks(new iota.SingleNodeClient(url), x) },
    { key: "receipts", client: "SingleNodeClient", checks: (url, x) => receiptsChecks(new iota.SingleNodeClient(url), x) }
];

async function main() {
    const [url, file] = process.argv.slice(2);
    if (!url || !file) {
        console.error("usage: node client.js <base URL> <expectations.json>");
        return 2;
    }
    let expectations;
    try {
        expectations = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (err) {
        console.error(`unusable expectations ${file}: ${err.message}`);
        return 2;
    }
    const sections = SECTIONS.filter((s) => expectations[s.key] !== undefined);
    if (sections.length === 0) {
        console.error(`${file} names no section (${SECTIONS.map((s) => s.key).join(", ")})`);
        return 2;
    }
    let total = 0;
    let failed = 0;
    for (const s of sections) {
        let sectionFailed = 0;
        const checks = s.checks(url, expectations[s.key]);
        for (const { name, run } of checks) {
            const c = new Check(name);
            try {
                await run(c);
            } catch (err) {
                c.want(false, `threw ${err.name}: ${err.message}${err.httpStatus ? ` (HTTP ${err.httpStatus})` : ""}`);
            }
            if (c.problems.length > 0) {
                sectionFailed++;
                console.log(`MISMATCH ${s.key} ${name}:\n  ${c.problems.join("\n  ")}`);
            }
        }
        console.log(`${s.key} (${s.client}): ${checks.length} checks, ${checks.length - sectionFailed} passed, ${sectionFailed} mismatched`);
        total += checks.length;
        failed += sectionFailed;
    }
    console.log(`${total} checks: ${total - failed} passed, ${failed} mismatched`);
    return failed > 0 ? 1 : 0;
}

main().then((code) => process.exit(code), (err) => {
    console.error(err);
    process.exit(2);
});
