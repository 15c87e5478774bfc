package main

import (
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
)

func TestHealthMaxAgeFlag(t *testing.T) {
	if f, err := parseFlags(nil); err != nil || f.healthMaxAge != api.DefaultHealthMaxAge {
		t.Errorf("default -health-max-age: %s, %v", f.healthMaxAge, err)
	}
	if f, err := parseFlags([]string{"-health-max-age", "90s"}); err != nil || f.healthMaxAge != 90*time.Second {
		t.Errorf("-health-max-age 90s: %s, %v", f.healthMaxAge, err)
	}
	for _, bad := range []string{"0s", "-1m", "soon"} {
		if _, err := parseFlags([]string{"-health-max-age", bad}); err == nil {
			t.Errorf("-health-max-age %s: accepted", bad)
		}
	}
}
