package chain_test

import (
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Fuzz targets for the textual forms: IDs and addresses.

// idParser parses one kind of 0x-hex ID and renders it back.
type idParser struct {
	what  string
	parse func(string) (string, error)
}

func idParsers() []idParser {
	wrap := func(what string, parse func(string) (string, error)) idParser { return idParser{what, parse} }
	return []idParser{
		wrap("message id", func(s string) (string, error) { id, err := chain.ParseMessageID(s); return id.String(), err }),
		wrap("transaction id", func(s string) (string, error) { id, err := chain.ParseTransactionID(s); return id.String(), err }),
		wrap("milestone id", func(s string) (string, error) { id, err := chain.ParseMilestoneID(s); return id.String(), err }),
		wrap("alias id", func(s string) (string, error) { id, err := chain.ParseAliasID(s); return id.String(), err }),
		wrap("nft id", func(s string) (string, error) { id, err := chain.ParseNFTID(s); return id.String(), err }),
		wrap("output id", func(s string) (string, error) { id, err := chain.ParseOutputID(s); return id.String(), err }),
		wrap("foundry id", func(s string) (string, error) { id, err := chain.ParseFoundryID(s); return id.String(), err }),
	}
}

// FuzzParseID feeds one string to every ID parser: an accepted string is the
// canonical form up to the case of its hex digits and parses back to the same ID; a
// refused one gets an ErrMalformedID naming the ID kind.
func FuzzParseID(f *testing.F) {
	f.Add("0x" + strings.Repeat("ab", 32))
	f.Add("0x" + strings.Repeat("AB", 34))
	f.Add(chain.NewFoundryID(chain.AliasID{1}, 7, 0).String())
	f.Add("0x")
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range idParsers() {
			text, err := p.parse(s)
			if err != nil {
				clearParseError(t, err, chain.ErrMalformedID, p.what)
				continue
			}
			if text != strings.ToLower(s) {
				t.Fatalf("%s %q renders as %q", p.what, s, text)
			}
			if again, err := p.parse(text); err != nil || again != text {
				t.Fatalf("%s %q: rendered form %q parses to %q, %v", p.what, s, text, again, err)
			}
		}
	})
}

// FuzzParseAddress: an accepted address round-trips through both textual forms under
// any HRP; a refused one gets an ErrMalformedAddress.
func FuzzParseAddress(f *testing.F) {
	for _, a := range []chain.Address{fixtureAddr(1), chain.AliasAddress(chain.AliasID{2}), chain.NFTAddress(chain.NFTID{3})} {
		f.Add(a.Bech32("smr"))
		f.Add(a.Bech32("iota"))
		f.Add(strings.ToUpper(a.Bech32("rms")))
		f.Add(a.Hex())
	}
	f.Add("smr1")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := chain.ParseAddress(s)
		if err != nil {
			clearParseError(t, err, chain.ErrMalformedAddress, "")
			return
		}
		for _, text := range []string{a.Bech32("smr"), a.Hex(), a.Bech32("iota")} {
			back, err := chain.ParseAddress(text)
			if err != nil || back != a {
				t.Fatalf("%q parses to %v, whose form %q parses to %v, %v", s, a, text, back, err)
			}
		}
	})
}
