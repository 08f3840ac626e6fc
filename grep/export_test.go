package grep

// Plan is plan, for the tests of the derived queries.
var Plan = plan
