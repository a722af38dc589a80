// Package tune improves and checks agents: SPSA tuning of heuristic weights, sequential probability
// ratio tests (GSPRT) between two agents, and logistic-regression learning of weights from
// self-play.
package tune
