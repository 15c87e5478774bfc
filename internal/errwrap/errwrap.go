// Package errwrap is an analyzer: fmt.Errorf formats an error only with %w, so that
// errors.Is and errors.As see through every layer (Go 1.20 allows several %w in one call).
package errwrap

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports fmt.Errorf calls that format an error-typed argument with a verb other
// than %w.
var Analyzer = &analysis.Analyzer{
	Name:     "errwrap",
	Doc:      "fmt.Errorf wraps errors with %w, never formats them with %v, %s or %q",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		if !isErrorf(pass, call) || len(call.Args) < 2 || call.Ellipsis.IsValid() {
			return
		}
		format := pass.TypesInfo.Types[call.Args[0]].Value
		if format == nil || format.Kind() != constant.String {
			return
		}
		args := call.Args[1:]
		for _, v := range verbs(constant.StringVal(format)) {
			if v.arg >= len(args) || v.verb == 'w' || v.verb == 'T' || v.verb == 'p' {
				continue
			}
			if t := pass.TypesInfo.TypeOf(args[v.arg]); t != nil && types.Implements(t, errorType) {
				pass.Reportf(args[v.arg].Pos(), "fmt.Errorf formats an error with %%%c: wrap it with %%w", v.verb)
			}
		}
	})
	return nil, nil
}

// isErrorf says whether call calls fmt.Errorf.
func isErrorf(pass *analysis.Pass, call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf"
}
