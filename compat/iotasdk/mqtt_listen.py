"""Listens to the API's TIP-28 events with IOTA's official SDK (iota-sdk, pinned in
requirements.txt), as a wallet does: Client(nodes=[URL]).listen_mqtt(topics, handler),
which finds the broker at URL/api/mqtt/v1 (MQTT over WebSocket) once /info says the node
is healthy, and decodes each message by its topic (blocks and milestones from their bytes
with the node's protocol parameters, the rest as JSON).

usage: python mqtt_listen.py URL TOPICS.json UNTIL SECONDS

Prints "listening" once listen_mqtt returned, then one line "EVENT <json>" per message
the SDK hands its callback ({"topic", "payload"}, the payload a JSON text), until
milestone-info/confirmed says index UNTIL (then it waits 3 s more for what is still
under way) or SECONDS pass; then "done" or "timeout" (exit 1).
"""

import json
import sys
import threading
import time

from iota_sdk import Client

MAX_SUBSCRIBE = 10 * 1024


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        sys.exit(2)
    url, topics_file, until, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    with open(topics_file, encoding="utf-8") as f:
        topics = json.load(f)
    client = Client(nodes=[url])
    reached = threading.Event()
    lock = threading.Lock()

    def on_event(event):
        e = json.loads(event)
        if isinstance(e, str):  # the bindings hand over the event's JSON as a JSON string
            e = json.loads(e)
        with lock:
            print("EVENT " + json.dumps(e), flush=True)
        if e.get("topic") == "milestone-info/confirmed" and json.loads(e["payload"]).get("index", 0) >= until:
            reached.set()

    # One call: the SDK sends its topics in one SUBSCRIBE, which its MQTT client refuses
    # to send past 10 KiB; and a second call may deadlock, waiting for the SDK's handler
    # table while holding the GIL that a handler running for an earlier topic needs.
    size = sum(len(t.encode()) + 3 for t in topics) + 4
    if size > MAX_SUBSCRIBE:
        print(f"{len(topics)} topics make a SUBSCRIBE of {size} bytes, over the SDK's {MAX_SUBSCRIBE}")
        sys.exit(2)
    client.listen_mqtt(topics, on_event)
    print("listening", flush=True)
    ok = reached.wait(seconds)
    time.sleep(3)
    client.clear_mqtt_listeners(topics)
    print("done" if ok else "timeout", flush=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
