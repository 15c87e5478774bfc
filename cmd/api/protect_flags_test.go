package main

import (
	"reflect"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api"
)

// TestDefaultLimitsAreTheFlags: with no flags the API runs with api.DefaultLimits, the
// limits the API's tests take as "the defaults"; a negative queue or connection cap is
// refused by name.
func TestDefaultLimitsAreTheFlags(t *testing.T) {
	f, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := api.DefaultLimits(); !reflect.DeepEqual(f.protect.limits, want) {
		t.Fatalf("flags' limits %+v\nwant api.DefaultLimits %+v", f.protect.limits, want)
	}
	for _, bad := range [][]string{{"-client-queue", "-1"}, {"-queue-wait", "2m"}, {"-client-connections", "-1"},
		{"-min-send-rate", "-5"}, {"-global-queue-wait", "-1s"}} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
