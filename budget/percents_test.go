package budget

// msp and bpc return the two numbers of a policy (see budget.Policy.Percents).
func msp(p Policy) int { m, _ := p.Percents(); return m }

func bpc(p Policy) int { _, b := p.Percents(); return b }
