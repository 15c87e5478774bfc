package api

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A parameter struct that does not fit its kinds is refused when its route is built.
func TestWithParamsRefusesMisdeclaredFields(t *testing.T) {
	type (
		wrongType struct {
			Count *string `query:"minNativeTokenCount" kind:"tokenCount"`
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
		"wrong type":   func() { withParams(route{}, noAnswer[wrongType]) },
		"path pointer": func() { withParams(route{}, noAnswer[pathPointer]) },
		"query value":  func() { withParams(route{}, noAnswer[queryValue]) },
		"unknown kind": func() { withParams(route{}, noAnswer[unknownKind]) },
		"untagged":     func() { withParams(route{}, noAnswer[untagged]) },
	} {
		if msg := panicOf(build); !strings.HasPrefix(msg, "api: ") {
			t.Errorf("%s: built (%q), want refused", name, msg)
		}
	}
}

// A route's parameters are its struct's fields in order, embedded ones in place; the
// handler gets what the request gives, an address under the network's HRP.
func TestWithParamsFillsTheStruct(t *testing.T) {
	var got *anyParams
	rt := withParams(route{pattern: "/x"}, func(_ context.Context, _ *input, p *anyParams) (any, error) {
		got = p
		return nil, nil
	})
	var names []string
	for _, p := range rt.query {
		names = append(names, p.name)
	}
	want := "hasNativeTokens minNativeTokenCount maxNativeTokenCount unlockableByAddress createdBefore createdAfter pageSize cursor"
	if strings.Join(names, " ") != want {
		t.Fatalf("query parameters %v, want %s", names, want)
	}
	addr := "smr1qqs2qqenvrz4yuzvg4u83882d6d29ygvqg3t6lwejp5ch54lxhrgzl3elje"
	in, err := parseInput(&rt, nil, "minNativeTokenCount=3&unlockableByAddress="+addr)
	if err != nil {
		t.Fatal(err)
	}
	in.localize("rms")
	if _, err := rt.handle(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if got.MinNativeTokens == nil || *got.MinNativeTokens != 3 || got.HasNativeTokens != nil || got.Cursor != nil ||
		got.Unlockable == nil || !strings.HasPrefix(*got.Unlockable, "rms1") {
		t.Fatalf("filled %+v", got)
	}
}

func noAnswer[P any](context.Context, *input, *P) (any, error) { return nil, nil }

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
		{docOf[milestoneSpanParams](t, "end"), strconv.Itoa(maxAnalyticsMilestones) + " milestones"},
		{docOf[dateRangeParams](t, "to"), strconv.Itoa(maxAnalyticsDays) + " days"},
		{docOf[familyDailyParams](t, "from"), strconv.Itoa(defaultDailyDays-1) + " days"},
		{docOf[familyDailyParams](t, "to"), strconv.Itoa(maxAnalyticsDays) + " days"},
	} {
		if !strings.Contains(c.doc, c.want) {
			t.Errorf("doc %q does not say %q", c.doc, c.want)
		}
	}
}

func docOf[P any](t *testing.T, name string) string {
	t.Helper()
	for _, f := range paramFields(reflect.TypeFor[P](), nil) {
		if f.param.name == name {
			return f.param.doc
		}
	}
	t.Fatalf("no parameter %s", name)
	return ""
}
