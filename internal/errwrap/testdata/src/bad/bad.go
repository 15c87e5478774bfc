package bad

import (
	"errors"
	"fmt"
)

type myErr struct{}

func (*myErr) Error() string { return "mine" }

var errBase = errors.New("base")

func calls(err error, mine *myErr, n int, s string) []error {
	return []error{
		fmt.Errorf("reading: %v", err),             // want `fmt.Errorf formats an error with %v: wrap it with %w`
		fmt.Errorf("%w: %v", errBase, err),         // want `fmt.Errorf formats an error with %v: wrap it with %w`
		fmt.Errorf("%s at %d", mine, n),            // want `fmt.Errorf formats an error with %s: wrap it with %w`
		fmt.Errorf("%[2]d: %[1]q", err, n),         // want `fmt.Errorf formats an error with %q: wrap it with %w`
		fmt.Errorf("%w: %w", errBase, err),         // several %w (Go 1.20)
		fmt.Errorf("%s %d: %w", s, n, err),         // only %w formats the error
		fmt.Errorf("%v", err.Error()),              // a string, not an error
		fmt.Errorf("type %T", err),                 // %T names the type
		fmt.Errorf("no args"),                      // nothing to format
		fmt.Errorf("%*d %w", n, n, err),            // * takes an argument
		errors.New(fmt.Sprintf("sprintf %v", err)), // not Errorf
	}
}
