package main

import (
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
)

func TestMovingMaxAgeFlag(t *testing.T) {
	if f, err := parseFlags(nil); err != nil || f.movingMaxAge != api.DefaultMovingMaxAge {
		t.Errorf("default -moving-max-age: %s, %v", f.movingMaxAge, err)
	}
	if f, err := parseFlags([]string{"-moving-max-age", "30s"}); err != nil || f.movingMaxAge != 30*time.Second {
		t.Errorf("-moving-max-age 30s: %s, %v", f.movingMaxAge, err)
	}
	for _, bad := range []string{"0s", "500ms", "-1m", "soon"} {
		if _, err := parseFlags([]string{"-moving-max-age", bad}); err == nil {
			t.Errorf("-moving-max-age %s: accepted", bad)
		}
	}
}
