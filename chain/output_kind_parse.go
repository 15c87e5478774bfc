package chain

import "fmt"

// namedOutputKinds are the output kinds that have a name (OutputKind.String).
var namedOutputKinds = []OutputKind{OutputLegacy, OutputBasic, OutputAlias, OutputFoundry, OutputNFT}

// ParseOutputKind is the output kind of a name OutputKind.String gives ("basic",
// "alias", "foundry", "nft", "legacy"): the tables and the API name kinds so.
func ParseOutputKind(name string) (OutputKind, error) {
	for _, k := range namedOutputKinds {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("chain: unknown output kind %q", name)
}
