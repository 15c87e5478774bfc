package tip28

import (
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// Routes is the broker's route in the document: the WebSocket upgrade itself is served
// before the route table (api.Server.Handler), so the route answers what is not one.
func Routes() []rest.Route {
	return []rest.Route{{Pattern: Path, Tag: "events",
		Summary: "TIP-28 node events: MQTT 3.1.1 (or 5) over WebSocket, subprotocol \"mqtt\", read-only " +
			"(subscriptions only): milestone-info/latest, milestone-info/confirmed, milestones, outputs/{outputId}, " +
			"outputs/unlock/{condition}/{address}[/spent], transactions/{transactionId}/included-block, " +
			"block-metadata/{blockId}, published as each milestone is indexed; a plain GET is answered 426; " +
			"see docs/mqtt.md",
		Refuse: notAnUpgrade,
		Errs:   map[int]string{http.StatusUpgradeRequired: "not a WebSocket upgrade: connect an MQTT client to ws://<host>" + Path}}}
}

func notAnUpgrade(*http.Request) *rest.APIError {
	return &rest.APIError{Status: http.StatusUpgradeRequired, Title: "upgrade required",
		Detail: "this path serves MQTT over WebSocket (TIP-28): connect an MQTT client to it (see docs/mqtt.md)"}
}
