package reader_test

import "github.com/snii-go/snii/budget"

// minSavingPercent returns the first number of a policy (see budget.Policy.Percents).
func minSavingPercent(p budget.Policy) int { m, _ := p.Percents(); return m }
