package querylang

import "fmt"

// MaxDepth is the deepest nesting of parentheses Parse accepts.
const MaxDepth = 100

// Parse parses a query. Errors are *SyntaxError.
func Parse(q string) (Node, error) {
	p := &parser{lx: lexer{s: q, col: 1}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.tok.kind == tEOF {
		return nil, &SyntaxError{p.tok.col, "empty query; expected a term, a phrase or '('"}
	}
	n, err := p.or("", 0)
	if err != nil {
		return nil, err
	}
	switch p.tok.kind {
	case tEOF:
		if !Positive(n) {
			return nil, &SyntaxError{n.Column(), "a query needs something to match besides NOT: write a AND NOT b"}
		}
		return n, nil
	case tRParen:
		return nil, &SyntaxError{p.tok.col, "unexpected ')' without a matching '('"}
	}
	// Unreachable: the and-loop consumes everything that can follow a unary.
	return nil, &SyntaxError{p.tok.col, fmt.Sprintf("unexpected %s", p.tok.describe())}
}

type parser struct {
	lx  lexer
	tok token
}

func (p *parser) advance() error {
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

// or parses and { OR and }. after names what came before, for messages.
func (p *parser) or(after string, depth int) (Node, error) {
	first, err := p.and(after, depth)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tOr {
		return first, nil
	}
	o := &Or{Col: first.Column()}
	o.add(first)
	for p.tok.kind == tOr {
		if err := p.advance(); err != nil {
			return nil, err
		}
		n, err := p.and("after OR", depth)
		if err != nil {
			return nil, err
		}
		o.add(n)
	}
	for _, c := range o.Nodes {
		if !Positive(c) {
			return nil, &SyntaxError{c.Column(), "NOT inside OR excludes nothing: a side of OR needs something to match besides NOT"}
		}
	}
	return o, nil
}

// Positive reports whether n matches documents by itself: not a Not, nor an
// And of Nots only.
func Positive(n Node) bool {
	switch n := n.(type) {
	case *Not:
		return false
	case *And:
		for _, c := range n.Nodes {
			if Positive(c) {
				return true
			}
		}
		return false
	}
	return true
}

func (o *Or) add(n Node) {
	if c, ok := n.(*Or); ok {
		o.Nodes = append(o.Nodes, c.Nodes...)
		return
	}
	o.Nodes = append(o.Nodes, n)
}

func (a *And) add(n Node) {
	if c, ok := n.(*And); ok {
		a.Nodes = append(a.Nodes, c.Nodes...)
		return
	}
	a.Nodes = append(a.Nodes, n)
}

// startsUnary reports whether the current token can begin a unary.
func (p *parser) startsUnary() bool {
	switch p.tok.kind {
	case tText, tLParen, tNot:
		return true
	}
	return false
}

func (p *parser) and(after string, depth int) (Node, error) {
	first, err := p.unary(after, depth)
	if err != nil {
		return nil, err
	}
	var a *And
	for p.tok.kind == tAnd || p.startsUnary() {
		ctx := ""
		if p.tok.kind == tAnd {
			if err := p.advance(); err != nil {
				return nil, err
			}
			ctx = "after AND"
		}
		n, err := p.unary(ctx, depth)
		if err != nil {
			return nil, err
		}
		if a == nil {
			a = &And{Col: first.Column()}
			a.add(first)
		}
		a.add(n)
	}
	if a == nil {
		return first, nil
	}
	return a, nil
}

func (p *parser) unary(after string, depth int) (Node, error) {
	t := p.tok
	switch t.kind {
	case tText:
		if err := p.advance(); err != nil {
			return nil, err
		}
		if t.pat != nil {
			return t.pat, nil
		}
		return t.text, nil
	case tLParen:
		if depth >= MaxDepth {
			return nil, &SyntaxError{t.col, fmt.Sprintf("parentheses nested deeper than %d levels", MaxDepth)}
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		n, err := p.or("after '('", depth+1)
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tRParen {
			return nil, &SyntaxError{p.tok.col, fmt.Sprintf("expected ')' to close the '(' at column %d, found %s", t.col, p.tok.describe())}
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		if t.field != "" {
			setField(n, t.field)
		}
		return n, nil
	case tNot:
		if err := p.advance(); err != nil {
			return nil, err
		}
		ctx := "after NOT"
		if t.minus {
			ctx = "after '-'"
		}
		if p.tok.kind == tNot {
			return nil, &SyntaxError{p.tok.col, "a negation cannot be negated again"}
		}
		n, err := p.unary(ctx, depth)
		if err != nil {
			return nil, err
		}
		if !Positive(n) { // "-(-a)", "-(-a -b)"
			return nil, &SyntaxError{n.Column(), "a negation cannot be negated again"}
		}
		return &Not{Node: n, Col: t.col}, nil
	}
	msg := "expected a term, a phrase or '('"
	if after != "" {
		msg += " " + after
	}
	return nil, &SyntaxError{t.col, msg + ", found " + t.describe()}
}

// setField gives field to every text under n that names none ("f:(a OR
// g:b)": a is searched in f, b stays in g).
func setField(n Node, field string) {
	Walk(n, func(n Node) {
		switch t := n.(type) {
		case *Text:
			if t.Field == "" {
				t.Field = field
			}
		case *Pattern:
			if t.Field == "" {
				t.Field = field
			}
		case *PatternPhrase:
			if t.Field == "" {
				t.Field = field
			}
		}
	})
}
