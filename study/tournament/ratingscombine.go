package tournament

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fairplay-lab/fairplay/runner"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/tally"

	"github.com/fairplay-lab/fairplay/engine/games"
	"github.com/fairplay-lab/fairplay/internal/config"
)

// CombinedKind marks the configuration of ratings fitted over several tournaments.
const CombinedKind = "combined-ratings"

// CombineTournaments fits one rating scale over the pairings of finished tournaments (their
// directories, in order): agents are matched by canonical spec, the first agent of the first
// tournament is the anchor, and a pairing played in several tournaments counts all its games.
// This extends a tournament with new agents (a second tournament pairing them with some of the
// old ones) without replaying it. It writes the same outputs as a tournament into dir.
func CombineTournaments(sources []string, prior float64, bootstrap int, seed uint64, dir string, args []string) (*TournamentOutcome, error) {
	if len(sources) == 0 {
		return nil, fmt.Errorf("no tournament directories given")
	}
	cfg := TournamentConfig{Kind: CombinedKind, Sources: sources, Prior: prior, Bootstrap: bootstrap, Seed: seed}
	var cfgs []TournamentConfig
	var pins pinUnion
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
		var c TournamentConfig
		if man.Kind != TournamentKind {
			return nil, fmt.Errorf("%s: not a tournament directory (it holds a %s run)", d, man.Kind)
		}
		if err := json.Unmarshal(man.Config, &c); err != nil {
			return nil, fmt.Errorf("%s: manifest config: %v", d, err)
		}
		if man.Status != "complete" || man.Shards != 1 {
			return nil, fmt.Errorf("%s: the tournament is %s (shard %d of %d): finish or merge it first", d, man.Status, man.Shard, man.Shards)
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
		if err := pins.add(d, man.Agents); err != nil {
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
	man, err := runner.NewManifest(runner.Session{Args: args}, CombinedKind, cfg, seed, "pairings", 0)
	if err != nil {
		return nil, err
	}
	man.Agents = pins.list
	out := &TournamentOutcome{}
	dc := newDistinctCounter(len(cfg.Agents))
	seenPairing := map[string]string{} // pairing configuration hash → where it was counted
	for i, c := range cfgs {
		for _, p := range c.Pairings() {
			pm, err := gamefile.ReadManifest(filepath.Join(pairingDir(sources[i], p), "manifest.json"))
			if err != nil {
				return nil, err
			}
			where := fmt.Sprintf("%s (%s vs %s)", sources[i], c.Labels[p[0]], c.Labels[p[1]])
			if prev, ok := seenPairing[pm.ConfigSHA256]; ok {
				return nil, config.Errorf("", "", "%s replays the games of %s (same agents, seed and rules): they would count twice; play the later tournament with another {Seed}", where, prev)
			}
			seenPairing[pm.ConfigSHA256] = where
			q := [2]int{slices.Index(cfg.Agents, c.Agents[p[0]]), slices.Index(cfg.Agents, c.Agents[p[1]])}
			sum := tally.NewSummary(nil)
			if err := scanPairing(filepath.Join(pairingDir(sources[i], p), "games.csv"), sum, dc, q); err != nil {
				return nil, err
			}
			out.Pairs, out.Summaries = append(out.Pairs, q), append(out.Summaries, sum)
		}
	}
	out.Distinct, out.DistinctTotal = dc.counts()
	out.Pins = pins.list
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
