package wallet

import (
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// Prefix is where the wallet routes live.
const Prefix = "/api/wallet/v1"

// Routes are the wallet routes under /api/wallet/v1 (docs/wallet-api.md).
func (s *API) Routes() []rest.Route {
	return []rest.Route{{Pattern: Prefix + "/outputs", Tag: "wallet", Cache: rest.CacheNoStore, Body: "WalletOutputsRequest",
		Summary: "Every output a set of addresses owns (address unlock condition, state controller, governor, " +
			"foundry alias address, storage deposit and expiration return), at one ledger index, with its TIP-25 " +
			"JSON and metadata, address by address (each address's outputs in TIP-26 order), paged with one cursor across the addresses",
		Schema: "WalletOutputs", Handle: s.outputs,
		Errs: map[int]string{http.StatusBadRequest: "a malformed body, no or more than 1000 addresses, a " +
			"malformed address (named by its position, addresses[k]), a pageSize outside 1-1000, a cursor this " +
			"route did not give or sent with other addresses, includeSpent or ledgerIndex, or a ledgerIndex above the " +
			"ledger index",
			http.StatusRequestEntityTooLarge: "a body over 256 KiB",
			http.StatusUnprocessableEntity:   "the addresses name more outputs than one page may read"}}}
}

// Schemas are the wallet routes' request and answer.
func Schemas() rest.Object {
	str, integer := rest.Object{"type": "string"}, rest.Object{"type": "integer"}
	return rest.Object{
		"WalletOutputsRequest": rest.Object{"type": "object", "required": []string{"addresses"}, "properties": rest.Object{
			"addresses": rest.Object{"type": "array", "items": str, "minItems": 1, "maxItems": MaxAddresses,
				"description": "bech32 addresses (any HRP) or 0x-hex ones"},
			"ledgerIndex": rest.Object{"type": "integer", "description": "answer at this ledger index " +
				"(default: the ledger index; a cursor carries its page's)"},
			"includeSpent": rest.Object{"type": "boolean", "description": "every output the addresses owned " +
				"by the ledger index, spent or not"},
			"cursor":   rest.Object{"type": "string", "description": "the previous page's cursor"},
			"pageSize": rest.Object{"type": "integer", "minimum": 1, "maximum": MaxPageSize, "default": DefaultPageSize},
		}},
		"WalletOutputs": rest.Object{"type": "object", "required": []string{"ledgerIndex", "items"},
			"properties": rest.Object{
				"ledgerIndex": integer,
				"cursor":      rest.Object{"type": "string", "description": "the next page's cursor; absent on the last page"},
				"items": rest.ArrayOf(rest.Props("address", str, "roles", rest.ArrayOf(str), "outputId", str,
					"output", rest.Object{"type": "object"}, "metadata", rest.Ref("CoreOutputMetadata"))),
				"coverage": rest.Ref("LedgerCoverage"),
			}},
	}
}
