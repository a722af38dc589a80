package tournament

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fairplay-lab/fairplay/agents"
	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/internal/config"
)

// CombinedKind marks the configuration of ratings fitted over several tournaments.
const CombinedKind = "combined-ratings"

// CombineTournaments fits one rating scale over the pairings of finished tournaments and
// matches (their directories, in order): a match (fairplay play between two agents, kind
// runner.MatchKind) counts as one pairing. Agents are matched by canonical spec, the first
// agent of the first source is the anchor, and a pairing played in several sources counts all
// its games. This extends a tournament with new agents (a second tournament, or a match,
// pairing them with some of the old ones) without replaying it. It writes the same outputs as
// a tournament into dir.
func CombineTournaments(sources []string, prior float64, bootstrap int, seed uint64, dir string, args []string) (*TournamentOutcome, error) {
	plan, err := planCombine(sources)
	if err != nil {
		return nil, err
	}
	cfg := plan.cfg
	cfg.Prior, cfg.Bootstrap, cfg.Seed = prior, bootstrap, seed
	man, err := runner.NewManifest(runner.Session{Args: args}, CombinedKind, cfg, seed, "pairings", 0)
	if err != nil {
		return nil, err
	}
	man.Agents = plan.pins.list
	out := &TournamentOutcome{}
	dc := newDistinctCounter(len(cfg.Agents))
	for _, pg := range plan.pairings {
		sum := tally.NewSummary(nil)
		if err := scanPairing(pg.games, sum, dc, pg.q); err != nil {
			return nil, err
		}
		out.Pairs, out.Summaries = append(out.Pairs, pg.q), append(out.Summaries, sum)
	}
	out.Distinct, out.DistinctTotal = dc.counts()
	out.Pins = plan.pins.list
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := writeTournamentReports(dir, cfg, out); err != nil {
		return nil, err
	}
	man.Planned, man.EndGame, man.Completed = int64(len(out.Pairs)), int64(len(out.Pairs)), int64(len(out.Pairs))
	man.Status, man.Ended, man.Outputs = "complete", time.Now().UTC(), out.Outputs
	return out, gamefile.WriteManifest(filepath.Join(dir, "manifest.json"), man)
}

// CheckCombine makes every check of CombineTournaments that the sources' manifests decide (a
// source given twice, unfinished, of another game or rules, a sequential test, a match of an
// agent against itself, an agent that played differently in two sources, games another source
// holds) without reading their games or writing anything, so that a command can refuse bad
// sources before it makes its output directory.
func CheckCombine(sources []string) error {
	_, err := planCombine(sources)
	return err
}

// combinePlan is a combined fit's sources read and checked: the union configuration (agents
// in order of first appearance), the agents' pins and every pairing's games file.
type combinePlan struct {
	cfg      TournamentConfig
	pins     pinUnion
	pairings []combinePairing
}

type combinePairing struct {
	games string
	q     [2]int // the two agents' indices in cfg.Agents, A first
}

func planCombine(sources []string) (*combinePlan, error) {
	if len(sources) == 0 {
		return nil, fmt.Errorf("no tournament or match directories given")
	}
	plan := &combinePlan{cfg: TournamentConfig{Kind: CombinedKind, Sources: sources}}
	cfg := &plan.cfg
	var cfgs []TournamentConfig
	seenDir := map[string]string{}
	for i, d := range sources {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		if prev, ok := seenDir[abs]; ok {
			return nil, fmt.Errorf("%s: given twice (also as %s): its games would count twice", d, prev)
		}
		seenDir[abs] = d
		man, err := gamefile.ReadManifest(filepath.Join(d, "manifest.json"))
		if err != nil {
			return nil, err
		}
		c, err := combineSource(d, man)
		if err != nil {
			return nil, err
		}
		if c.Kind == runner.MatchKind {
			cfg.Matches++
		}
		gm, err := games.New(c.Game, c.Rules, "", nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", d, err)
		}
		if i == 0 {
			cfg.Game, cfg.Rules = c.Game, gm.Rules()
		} else if c.Game != cfg.Game || gm.Rules() != cfg.Rules {
			return nil, fmt.Errorf("%s: %s with rules %s, but %s is %s with rules %s", d, c.Game, gm.Rules(), sources[0], cfg.Game, cfg.Rules)
		}
		if err := plan.pins.add(d, man.Agents); err != nil {
			return nil, err
		}
		cfgs = append(cfgs, c)
	}
	for _, c := range cfgs {
		for k, spec := range c.Agents {
			if !slices.Contains(cfg.Agents, spec) {
				cfg.Agents, cfg.Labels = append(cfg.Agents, spec), append(cfg.Labels, c.Labels[k])
			}
		}
	}
	seenGames := map[string]string{} // games key → where they were counted
	for i, c := range cfgs {
		for _, p := range c.Pairings() {
			pd, games := sources[i], ""
			if c.Kind == runner.MatchKind {
				found, _, err := gamefile.FindGames(pd) // a match may write Parquet
				if err != nil {
					return nil, fmt.Errorf("%s: %w", pd, err)
				}
				games = found
			} else {
				pd = pairingDir(sources[i], p)
				games = filepath.Join(pd, "games.csv")
			}
			pm, err := gamefile.ReadManifest(filepath.Join(pd, "manifest.json"))
			if err != nil {
				return nil, err
			}
			key, err := gamesKey(pm)
			if err != nil {
				return nil, fmt.Errorf("%s: manifest config: %v", pd, err)
			}
			where := fmt.Sprintf("%s (%s vs %s)", sources[i], c.Labels[p[0]], c.Labels[p[1]])
			if prev, ok := seenGames[key]; ok {
				return nil, config.Errorf("", "", "%s replays the games of %s (same agents, seed and rules): they would count twice; play the later tournament or match with another {Seed}", where, prev)
			}
			seenGames[key] = where
			q := [2]int{slices.Index(cfg.Agents, c.Agents[p[0]]), slices.Index(cfg.Agents, c.Agents[p[1]])}
			plan.pairings = append(plan.pairings, combinePairing{games: games, q: q})
		}
	}
	return plan, nil
}

// gamesKey identifies the games a match directory holds whatever their number: a game
// depends only on the configuration, seed and its index, so two runs that differ only in how
// many games they play share the shorter one's games.
func gamesKey(pm *gamefile.Manifest) (string, error) {
	var c map[string]any
	if err := json.Unmarshal(pm.Config, &c); err != nil {
		return "", err
	}
	delete(c, "games")
	_, h, err := gamefile.HashConfig(c)
	return h, err
}

// combineSource reads a source of a combined fit: a finished tournament, or a finished match
// between two agents, which stands as a tournament of one pairing (its Kind runner.MatchKind,
// its agents labelled by their short specs).
func combineSource(d string, man *gamefile.Manifest) (TournamentConfig, error) {
	var c TournamentConfig
	if man.Status != "complete" || man.Shards != 1 {
		return c, fmt.Errorf("%s: the %s is %s (shard %d of %d): finish or merge it first", d, man.Kind, man.Status, man.Shard, man.Shards)
	}
	switch man.Kind {
	case TournamentKind:
		if err := json.Unmarshal(man.Config, &c); err != nil {
			return c, fmt.Errorf("%s: manifest config: %v", d, err)
		}
		return c, nil
	case runner.MatchKind:
		var m runner.MatchConfig
		if err := json.Unmarshal(man.Config, &m); err != nil {
			return c, fmt.Errorf("%s: manifest config: %v", d, err)
		}
		switch {
		case m.SPRT != nil:
			return c, fmt.Errorf("%s: a sequential test (sprt): it stops when its decision is reached, so its games are not a fixed sample to rate from; play a match of a fixed number of games", d)
		case m.A == m.B:
			return c, fmt.Errorf("%s: a match of %s against itself: it rates nothing", d, agents.ShortSpec(m.A))
		}
		return TournamentConfig{Kind: runner.MatchKind, Game: m.Game, Rules: m.Rules, Layout: m.Layout, Tiles: m.Tiles,
			Agents: []string{m.A, m.B}, Labels: []string{agents.ShortSpec(m.A), agents.ShortSpec(m.B)}, Band: 1,
			Games: m.Games, Seed: m.Seed, RandomOpening: m.RandomOpening, RandomLayouts: m.RandomLayouts}, nil
	}
	return c, fmt.Errorf("%s: not a tournament or match directory (it holds a %s run)", d, man.Kind)
}

// pinUnion gathers the agent pins of the combined tournaments' manifests (none from a
// tournament written before manifests pinned agents), each spec once.
type pinUnion struct {
	list  []gamefile.AgentPin
	where []string // the tournament each pin came from
}

// add adds a tournament's pins, refusing a spec that played differently in an earlier one
// (another fingerprint or other files): that is another agent under the same name, and one
// rating for both would describe neither.
func (u *pinUnion) add(dir string, pins []gamefile.AgentPin) error {
	for _, p := range pins {
		i := slices.IndexFunc(u.list, func(q gamefile.AgentPin) bool { return q.Spec == p.Spec })
		if i < 0 {
			u.list, u.where = append(u.list, p), append(u.where, dir)
			continue
		}
		if err := runner.SamePins(u.list[i:i+1], []gamefile.AgentPin{p}, "in "+u.where[i], "in "+dir); err != nil {
			return fmt.Errorf("%w: the program or its files changed between the tournaments, so these are two agents, and one rating would describe neither; combine tournaments played by one version, or replay the older one", err)
		}
	}
	return nil
}
