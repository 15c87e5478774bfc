package api

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// A parameter struct that does not fit its kinds is refused when its route is built.
func TestWithParamsRefusesMisdeclaredFields(t *testing.T) {
	type (
		wrongType struct {
			Count *string `query:"minNativeTokenCount" kind:"tokenCount"`
		}
		timeAsText struct {
			From *string `query:"from" kind:"time"`
		}
		otherID struct {
			ID *chain.TransactionID `query:"id" kind:"outputID"`
		}
		pathPointer struct {
			ID *string `path:"aliasId" kind:"aliasID"`
		}
		queryValue struct {
			Address string `query:"address" kind:"address"`
		}
		unknownKind struct {
			X *string `query:"x" kind:"nonesuch"`
		}
		untagged struct {
			X *string
		}
	)
	for name, build := range map[string]func(){
		"wrong type":   func() { rest.WithParams(rest.Route{}, noAnswer[wrongType]) },
		"time as text": func() { rest.WithParams(rest.Route{}, noAnswer[timeAsText]) },
		"other ID":     func() { rest.WithParams(rest.Route{}, noAnswer[otherID]) },
		"path pointer": func() { rest.WithParams(rest.Route{}, noAnswer[pathPointer]) },
		"query value":  func() { rest.WithParams(rest.Route{}, noAnswer[queryValue]) },
		"unknown kind": func() { rest.WithParams(rest.Route{}, noAnswer[unknownKind]) },
		"untagged":     func() { rest.WithParams(rest.Route{}, noAnswer[untagged]) },
	} {
		if msg := panicOf(build); !strings.HasPrefix(msg, "api: ") {
			t.Errorf("%s: built (%q), want refused", name, msg)
		}
	}
}

// A route's parameters are its struct's fields in order, embedded ones in place; the
// handler gets what the request gives, an address under the network's HRP.
func TestWithParamsFillsTheStruct(t *testing.T) {
	var got *indexer.AnyParams
	rt := rest.WithParams(rest.Route{Pattern: "/x"}, func(_ context.Context, _ *rest.Input, p *indexer.AnyParams) (any, error) {
		got = p
		return nil, nil
	})
	var names []string
	for _, p := range rt.Query {
		names = append(names, p.Name)
	}
	want := "hasNativeTokens minNativeTokenCount maxNativeTokenCount unlockableByAddress createdBefore createdAfter pageSize cursor ledgerIndex"
	if strings.Join(names, " ") != want {
		t.Fatalf("query parameters %v, want %s", names, want)
	}
	addr := "smr1qqs2qqenvrz4yuzvg4u83882d6d29ygvqg3t6lwejp5ch54lxhrgzl3elje"
	in, err := rest.ParseInput(&rt, nil, "minNativeTokenCount=3&unlockableByAddress="+addr)
	if err != nil {
		t.Fatal(err)
	}
	in.Localize("rms")
	if _, err := rt.Handle(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if got.MinNativeTokens == nil || *got.MinNativeTokens != 3 || got.HasNativeTokens != nil || got.Cursor != nil ||
		got.Unlockable == nil || !strings.HasPrefix(got.Unlockable.Text, "rms1") ||
		got.Unlockable.Address != localAddress(t, addr).Address {
		t.Fatalf("filled %+v", got)
	}
}

func noAnswer[P any](context.Context, *rest.Input, *P) (any, error) { return nil, nil }

func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// The bounds the parameter docs name are the bounds the handlers apply.
func TestParamDocsSayTheBounds(t *testing.T) {
	for _, c := range []struct {
		doc, want string
	}{
		{docOf[tables.MilestoneSpanParams](t, "end"), strconv.Itoa(rest.MaxAnalyticsMilestones) + " milestones"},
		{docOf[tables.DateRangeParams](t, "to"), strconv.Itoa(rest.MaxAnalyticsDays) + " days"},
		{docOf[analytics.FamilyDailyParams](t, "from"), strconv.Itoa(analytics.DefaultDailyDays-1) + " days"},
		{docOf[analytics.FamilyDailyParams](t, "to"), strconv.Itoa(rest.MaxAnalyticsDays) + " days"},
	} {
		if !strings.Contains(c.doc, c.want) {
			t.Errorf("doc %q does not say %q", c.doc, c.want)
		}
	}
}

func docOf[P any](t *testing.T, name string) string {
	t.Helper()
	for _, f := range rest.ParamFields(reflect.TypeFor[P](), nil) {
		if f.Param.Name == name {
			return f.Param.Doc
		}
	}
	t.Fatalf("no parameter %s", name)
	return ""
}

// An ID is parsed once: a field of its chain type gets the parsed ID, a string field its
// canonical text (lowercase 0x-hex, however the request wrote it).
func TestWithParamsFillsIDs(t *testing.T) {
	type ids struct {
		Typed chain.OutputID `path:"outputId" kind:"outputID"`
		Text  *string        `query:"transactionId" kind:"transactionID"`
	}
	var got *ids
	rt := rest.WithParams(rest.Route{Pattern: "/x/{outputId}"}, func(_ context.Context, _ *rest.Input, p *ids) (any, error) {
		got = p
		return nil, nil
	})
	var out chain.OutputID
	out[0], out[33] = 0xab, 1
	tx := chain.TransactionID{0xcd}
	upper := "0x" + strings.ToUpper(tx.String()[2:])
	in, err := rest.ParseInput(&rt, func(string) string { return out.String() }, "transactionId="+upper)
	if err != nil {
		t.Fatal(err)
	}
	in.Localize("smr")
	if _, err := rt.Handle(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if got.Typed != out || got.Text == nil || *got.Text != tx.String() {
		t.Fatalf("filled %+v, want output %s and transaction text %s", got, out, tx)
	}
}
