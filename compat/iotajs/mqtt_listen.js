#!/usr/bin/env node
// Listens to the API's TIP-28 events with IOTA's JS MQTT client, @iota/mqtt.js (pinned in
// package.json; iota.js itself has none), as a wallet would: one MqttClient on the broker's
// URL (<base URL>/api/mqtt/v1), one subscription method per topic (the milestone and block
// topics decoded from their bytes by the iota.js it ships with, the rest as JSON).
//
// Usage: node mqtt_listen.js <base URL> <topics.json> <until> <seconds>
// Prints "EVENT <json>" per message ({"topic", "payload"}, the payload a JSON text) until
// milestone-info/confirmed says index <until> (then 3 s more) or <seconds> pass; then
// "done" (exit 0) or "timeout" (exit 1); exit 2 on unusable input.
"use strict";

const fs = require("fs");
const { MqttClient } = require("@iota/mqtt.js");

function main() {
    const [base, topicsFile, untilText, secondsText] = process.argv.slice(2);
    if (!secondsText) {
        console.log("usage: node mqtt_listen.js <base URL> <topics.json> <until> <seconds>");
        process.exit(2);
    }
    const until = Number(untilText);
    const topics = JSON.parse(fs.readFileSync(topicsFile, "utf8"));
    const client = new MqttClient(base.replace(/^http/, "ws") + "/api/mqtt/v1");
    let reached = false;
    const print = (topic, data) => {
        const payload = JSON.stringify(data, (_, v) => (typeof v === "bigint" ? v.toString() : v));
        console.log("EVENT " + JSON.stringify({ topic, payload }));
        if (topic === "milestone-info/confirmed" && data.index >= until && !reached) {
            reached = true;
            setTimeout(() => finish(true), 3000);
        }
    };
    for (const topic of topics) {
        subscribe(client, topic, print);
    }
    console.log("listening");
    setTimeout(() => finish(false), Number(secondsText) * 1000);
}

// subscribe subscribes to topic with the client's method for its kind.
function subscribe(client, topic, cb) {
    const parts = topic.split("/");
    if (topic === "milestone-info/confirmed") {
        client.milestonesConfirmed(cb);
    } else if (topic === "milestone-info/latest") {
        client.milestonesLatest(cb);
    } else if (topic === "milestones") {
        client.milestone(cb);
    } else if (parts[0] === "outputs" && parts[1] === "unlock" && parts.length === 5) {
        client.outputSpentByConditionAndAddress(parts[2], parts[3], cb);
    } else if (parts[0] === "outputs" && parts[1] === "unlock") {
        client.outputByConditionAndAddress(parts[2], parts[3], cb);
    } else if (parts[0] === "outputs") {
        client.output(parts[1], cb);
    } else if (parts[0] === "transactions") {
        client.transactionIncludedBlock(parts[1], cb);
    } else if (parts[0] === "block-metadata") {
        client.blocksMetadata(parts[1], cb);
    } else {
        console.log(`unknown topic ${topic}`);
        process.exit(2);
    }
}

function finish(ok) {
    console.log(ok ? "done" : "timeout");
    process.exit(ok ? 0 : 1);
}

main();
