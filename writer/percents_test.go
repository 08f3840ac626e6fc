package writer_test

import "github.com/snii-go/snii/budget"

// minSavingPercent and budgetPercent return the two numbers of a policy (see budget.Policy.Percents).
func minSavingPercent(p budget.Policy) int { m, _ := p.Percents(); return m }

func budgetPercent(p budget.Policy) int { _, b := p.Percents(); return b }
