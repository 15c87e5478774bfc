// The IOTA explorer's calls to a Chronicle permanode, run against this API: the block
// page (children), the address page (balance, ledger updates paged newest 20 following
// the cursors, the history download), the milestone page (blocks paged 10 newest
// following the cursors), the richest addresses, the token distribution, and search
// (the core routes the explorer's SDK client asks). Every answer is parsed as the
// explorer parses it, and its values are checked against expectations written by the
// Go test from the data file.
//
// usage: node chronicle_client.js <base URL> <expectations.json>
//
// ChronicleService, FetchHelper.json and FetchHelper.urlParams below are adapted from
// iotaledger/explorer (api/src/services/stardust/chronicleService.ts,
// api/src/utils/fetchHelper.ts), Copyright IOTA Stiftung, Apache License 2.0: node-fetch
// is Node's own fetch, moment's isBefore is a Date comparison, logging is left out.
"use strict";

const fs = require("fs");

const CHRONICLE_ENDPOINTS = {
    updatedByAddress: "/api/explorer/v2/ledger/updates/by-address/",
    richestAddresses: "/api/explorer/v2/ledger/richest-addresses",
    tokenDistribution: "/api/explorer/v2/ledger/token-distribution",
    balance: "/api/explorer/v2/balance/",
    milestoneBlocks: ["/api/explorer/v2/milestones/", "/blocks"],
    blockChildren: ["/api/explorer/v2/blocks/", "/children"],
};

const FetchHelper = {
    async json(baseUrl, path, method, payload, headers) {
        headers = headers ?? {};
        headers["Content-Type"] = "application/json";
        const res = await fetch(`${baseUrl.replace(/\/$/, "")}${path.length > 0 ? `/${path.replace(/^\//, "")}` : ""}`, {
            method,
            headers,
            body: payload ? JSON.stringify(payload) : undefined,
        });
        const json = await res.json();
        calls.push({ path, status: res.status });
        return json;
    },
    urlParams(params) {
        const urlParams = [];
        for (const key in params) {
            if (params[key] !== null && params[key] !== undefined) {
                urlParams.push(`${encodeURIComponent(key)}=${encodeURIComponent(params[key])}`);
            }
        }
        return urlParams.length > 0 ? `?${urlParams.join("&")}` : "";
    },
};

class ChronicleService {
    constructor(endpoint) {
        this.chronicleEndpoint = endpoint;
    }

    async addressBalance(address) {
        return FetchHelper.json(this.chronicleEndpoint, `${CHRONICLE_ENDPOINTS.balance}${address}`, "get");
    }

    async milestoneBlocks(milestoneId) {
        const path = `${CHRONICLE_ENDPOINTS.milestoneBlocks[0]}${milestoneId}${CHRONICLE_ENDPOINTS.milestoneBlocks[1]}`;
        let cursor;
        const blocks = [];
        do {
            const params = FetchHelper.urlParams({ pageSize: 10, sort: "newest", cursor });
            const response = await FetchHelper.json(this.chronicleEndpoint, `${path}${params}`, "get");
            cursor = response.cursor;
            if (response.blocks) {
                blocks.push(...response.blocks);
            }
        } while (cursor);
        const blockIds = blocks.sort((a, b) => b.payloadType - a.payloadType).map((block) => block.blockId);
        return { milestoneId, blocks: blockIds };
    }

    async blockChildren(blockId) {
        const path = `${CHRONICLE_ENDPOINTS.blockChildren[0]}${blockId}${CHRONICLE_ENDPOINTS.blockChildren[1]}`;
        return FetchHelper.json(this.chronicleEndpoint, `${path}`, "get");
    }

    async transactionHistory(request) {
        const params = {
            pageSize: request.pageSize,
            sort: request.sort,
            startMilestoneIndex: request.startMilestoneIndex,
            cursor: request.cursor,
        };
        return FetchHelper.json(
            this.chronicleEndpoint,
            `${CHRONICLE_ENDPOINTS.updatedByAddress}${request.address}${params ? `${FetchHelper.urlParams(params)}` : ""}`,
            "get",
        );
    }

    async transactionHistoryDownload(address, targetDate) {
        let response;
        let cursor;
        let isDone = false;
        const result = { address, items: [] };
        do {
            const params = FetchHelper.urlParams({ pageSize: 20, sort: "newest", cursor });
            response = await FetchHelper.json(
                this.chronicleEndpoint,
                `${CHRONICLE_ENDPOINTS.updatedByAddress}${address}${params}`,
                "get",
            );
            cursor = response.cursor;
            for (const item of response.items) {
                const itemTimestamp = item.milestoneTimestamp * 1000;
                if (targetDate && new Date(itemTimestamp) < new Date(targetDate)) {
                    isDone = true;
                } else {
                    result.items.push(item);
                }
            }
        } while (!isDone && cursor);
        result.items.sort((a, b) => {
            if (a.milestoneTimestamp === b.milestoneTimestamp && a.isSpent !== b.isSpent) {
                return a.isSpent ? 1 : -1;
            }
            return 1;
        });
        return result;
    }

    async richestAddresses(top) {
        const params = { top: top ?? 100 };
        return FetchHelper.json(this.chronicleEndpoint, `${CHRONICLE_ENDPOINTS.richestAddresses}${FetchHelper.urlParams(params)}`, "get");
    }

    async tokenDistribution() {
        return FetchHelper.json(this.chronicleEndpoint, `${CHRONICLE_ENDPOINTS.tokenDistribution}`, "get");
    }
}

const calls = [];
let passed = 0;
const mismatches = [];

function check(ok, what) {
    if (ok) {
        passed++;
    } else {
        mismatches.push(what);
    }
}

const sameSet = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
const updateKey = (u) => `${u.milestoneIndex} ${u.outputId} ${u.isSpent}`;

async function blockPage(svc, want) {
    for (const b of want.blocks) {
        const r = await svc.blockChildren(b.id);
        check(r.blockId === b.id && Array.isArray(r.children) && r.count === r.children.length && r.maxResults === 100,
            `block ${b.id}: children answer ${JSON.stringify(r)}`);
        check(sameSet(r.children ?? [], b.children), `block ${b.id}: children ${r.children}, want ${b.children}`);
    }
}

async function milestonePage(svc, want) {
    for (const ms of want.milestones) {
        const r = await svc.milestoneBlocks(ms.milestoneId);
        check(r.blocks.length === ms.blocks.length && sameSet(r.blocks, ms.blocks),
            `milestone ${ms.index}: blocks ${r.blocks.length}, want the cone's ${ms.blocks.length}`);
    }
}

// addressPage is the address page: the balance, the ledger updates the way the page
// reads them (pageSize 20, newest, following cursors), and the history download.
async function addressPage(svc, want, a) {
    const balance = await svc.addressBalance(a.address);
    check(typeof balance.totalBalance === "string" && BigInt(balance.totalBalance) === BigInt(a.totalBalance) &&
        typeof balance.availableBalance === "string" && balance.ledgerIndex === want.ledgerIndex,
        `balance ${a.address}: ${JSON.stringify(balance)}, want total ${a.totalBalance} at ${want.ledgerIndex}`);
    const items = [];
    let cursor;
    do {
        const r = await svc.transactionHistory({ address: a.address, pageSize: 20, sort: "newest", cursor });
        check(r.address === a.address && Array.isArray(r.items) && r.items.length <= 20, `history page of ${a.address}`);
        items.push(...r.items);
        cursor = r.cursor;
    } while (cursor);
    const keys = items.map(updateKey);
    check(a.owned.every((u) => keys.includes(updateKey(u))), `history of ${a.address} lacks an owned update: ${keys}`);
    check(keys.every((k) => want.updates.includes(k)), `history of ${a.address} names an update not in the data: ${keys}`);
    check(items.every((it, i) => i === 0 || items[i - 1].milestoneIndex >= it.milestoneIndex),
        `history of ${a.address} is not newest first`);
    check(new Set(keys).size === keys.length, `history of ${a.address} repeats an update`);
    for (const target of want.targetDates) {
        const d = await svc.transactionHistoryDownload(a.address, target.date);
        const wantKeys = items.filter((it) => it.milestoneTimestamp * 1000 >= Date.parse(target.date)).map(updateKey);
        check(sameSet(d.items.map(updateKey), wantKeys), `download of ${a.address} from ${target.date}: ${d.items.length} items, want ${wantKeys.length}`);
    }
}

async function analytics(svc, want) {
    const rich = await svc.richestAddresses(100);
    check(Array.isArray(rich.top) && rich.top.length > 0 && typeof rich.ledgerIndex === "number", `richest: ${JSON.stringify(rich)}`);
    for (const r of rich.top ?? []) {
        const b = await svc.addressBalance(r.address);
        check(typeof r.balance === "string" && BigInt(r.balance) === BigInt(b.totalBalance),
            `richest ${r.address}: ${r.balance}, its balance ${b.totalBalance}`);
    }
    check((rich.top ?? []).every((r, i, all) => i === 0 || BigInt(all[i - 1].balance) >= BigInt(r.balance)),
        "richest addresses are not richest first");
    const dist = await svc.tokenDistribution();
    check(Array.isArray(dist.distribution) && dist.distribution.length > 0 && typeof dist.ledgerIndex === "number",
        `distribution: ${JSON.stringify(dist)}`);
    const addresses = (dist.distribution ?? []).reduce((n, e) => n + Number(e.addressCount), 0);
    check(addresses === rich.top.length || rich.top.length === 100, `distribution counts ${addresses} addresses, the rich list ${rich.top.length}`);
    for (const e of dist.distribution ?? []) {
        check(typeof e.addressCount === "string" && typeof e.totalBalance === "string" &&
            typeof e.range.start === "number" && typeof e.range.end === "number", `distribution entry ${JSON.stringify(e)}`);
    }
}

// search is what the explorer's search asks the permanode (through its SDK client) for a
// milestone index, a milestone ID, a block ID, a transaction ID and an output ID.
async function search(base, want) {
    const get = (path) => FetchHelper.json(base, path, "get");
    for (const ms of want.milestones) {
        const byIndex = await get(`/api/core/v2/milestones/by-index/${ms.index}`);
        check(byIndex.index === ms.index && byIndex.type === 7, `search ${ms.index}: ${JSON.stringify(byIndex).slice(0, 200)}`);
        const byId = await get(`/api/core/v2/milestones/${ms.milestoneId}`);
        check(byId.index === ms.index, `search ${ms.milestoneId}: index ${byId.index}`);
    }
    for (const b of want.blocks) {
        const block = await get(`/api/core/v2/blocks/${b.id}`);
        check(block.protocolVersion === 2 && Array.isArray(block.parents), `search block ${b.id}`);
    }
    for (const tx of want.transactions) {
        const block = await get(`/api/core/v2/transactions/${tx.id}/included-block`);
        check(block.payload && block.payload.type === 6, `search transaction ${tx.id}`);
    }
    for (const id of want.outputs) {
        const o = await get(`/api/core/v2/outputs/${id}`);
        check(o.metadata && o.output && typeof o.output.type === "number", `search output ${id}`);
    }
}

async function main() {
    const [base, file] = process.argv.slice(2);
    const want = JSON.parse(fs.readFileSync(file, "utf8"));
    const svc = new ChronicleService(base);
    await blockPage(svc, want);
    await milestonePage(svc, want);
    for (const a of want.addresses) {
        await addressPage(svc, want, a);
    }
    await analytics(svc, want);
    await search(base, want);
    const failed = calls.filter((c) => c.status !== 200);
    check(failed.length === 0, `calls not answered 200: ${JSON.stringify(failed.slice(0, 5))}`);
    for (const m of mismatches) {
        console.log(`MISMATCH ${m}`);
    }
    console.log(`explorer client: ${calls.length} calls, ${passed} passed, ${mismatches.length} mismatched`);
    process.exit(mismatches.length === 0 ? 0 : 1);
}

main().catch((err) => {
    console.error(err);
    process.exit(2);
});
