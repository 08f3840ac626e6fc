package reader_test

import "github.com/snii-go/snii/budget"

// msp and bpc return the two numbers of a policy (see budget.Policy.Percents).
func msp(p budget.Policy) int { m, _ := p.Percents(); return m }
