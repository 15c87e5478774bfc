// Package wallet serves what a wallet or an exchange syncs in one request
// (/api/wallet/v1, docs/wallet-api.md): every output a set of addresses owns, at one
// ledger index, with each output's TIP-25 JSON and metadata.
package wallet

import "github.com/stardust-indexer/stardust-indexer/api/rest"

// API serves the wallet routes.
type API struct {
	*rest.Reads
	st    Store
	hints *hintCache
}

// New is the surface over r and st.
func New(r *rest.Reads, st Store) *API { return &API{Reads: r, st: st, hints: newHintCache()} }
