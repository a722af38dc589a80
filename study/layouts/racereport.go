package layouts

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairplay-lab/fairplay/gamefile"
	"github.com/fairplay-lab/fairplay/stats"
	"github.com/fairplay-lab/fairplay/tally"
)

// RaceSummary is what a race found: its answers counted, and the fairest board (or the boards
// left, among which the fairest is).
type RaceSummary struct {
	Question string
	Boards   int
	Answers  map[string]int // boards by answer (race.csv's answer column)
	Fairest  []string       // a fairest race: the fairest board, or the boards not eliminated
	Settled  bool           // a fairest race: the answer is one board
	Stopped  int            // a fair race: undecided boards stopped before the cap (futility)
	Games    int64          // games played
	Fixed    int64          // games of the fixed design: the cap on every board
}

var raceHeader = []string{"race", "board_index", "board", "grid", "n", "white_wins", "white_rate", "cs_low", "cs_high",
	"answer", "settled_at", "alpha", "method"}

// writeRaceCSV writes race.csv: one row per board, with its confidence sequence at the race's
// level (0.05 over the boards) and its answer.
func writeRaceCSV(dir string, sw *Sweep, board func(i int) (*gamefile.BoardResult, stats.ArmState, int64, error)) error {
	return tally.WriteAtomicFunc(filepath.Join(dir, "race.csv"), func(f io.Writer) error {
		bw := bufio.NewWriterSize(f, 1<<16)
		cw := csv.NewWriter(bw)
		cw.Write(raceHeader)
		for i := 0; i < sw.NumBoards(); i++ {
			b, st, at, err := board(i)
			if err != nil {
				return err
			}
			iv := sw.BandInterval(b.WhiteWins, b.N)
			settled := ""
			if at > 0 {
				settled = i64(at)
			}
			cw.Write([]string{sw.Cfg.Race, strconv.Itoa(i), b.Key, b.Grid, i64(b.N), i64(b.WhiteWins), f64(iv.Value), f64(iv.Low), f64(iv.High),
				st.String(), settled, f64(sw.bandAlpha()), stats.MethodRace})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// fairAnswer is a fair race's answer for a board: where its sequence lies against the band
// (the rule the board stopped by).
func (sw *Sweep) fairAnswer(b *gamefile.BoardResult) stats.ArmState {
	iv := sw.BandInterval(b.WhiteWins, b.N)
	switch {
	case iv.High < sw.Cfg.BandLow:
		return stats.Below
	case iv.Low > sw.Cfg.BandHigh:
		return stats.Above
	case iv.Low >= sw.Cfg.BandLow && iv.High <= sw.Cfg.BandHigh:
		return stats.Inside
	}
	return stats.Racing
}

// readRaceSummary sums up race.csv in dir.
func readRaceSummary(dir string, sw *Sweep) (*RaceSummary, error) {
	f, err := os.Open(filepath.Join(dir, "race.csv"))
	if err != nil {
		return nil, fmt.Errorf("a %s race's answers: %w", sw.Cfg.Race, err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	head, err := r.Read()
	if err != nil || strings.Join(head, ",") != strings.Join(raceHeader, ",") {
		return nil, fmt.Errorf("race.csv: not a race's answers (header %q)", strings.Join(head, ","))
	}
	s := &RaceSummary{Question: sw.Cfg.Race, Answers: map[string]int{}}
	var left []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("race.csv: %w", err)
		}
		n, err := strconv.ParseInt(rec[4], 10, 64)
		if err != nil || rec[0] != sw.Cfg.Race || rec[1] != strconv.Itoa(s.Boards) {
			return nil, fmt.Errorf("race.csv: row %d does not belong to this %s race of %d boards", s.Boards+1, sw.Cfg.Race, sw.NumBoards())
		}
		s.Boards++
		s.Games += n
		s.Answers[rec[9]]++
		switch rec[9] {
		case stats.Fairest.String():
			s.Fairest, s.Settled = []string{rec[2]}, true
		case stats.Racing.String():
			left = append(left, rec[2])
			if n < sw.Cfg.Games {
				s.Stopped++
			}
		}
	}
	if s.Boards != sw.NumBoards() {
		return nil, fmt.Errorf("race.csv: %d boards, the sweep has %d", s.Boards, sw.NumBoards())
	}
	if !s.Settled {
		s.Fairest = left
	}
	s.Fixed = int64(s.Boards) * sw.Cfg.Games
	return s, nil
}

// raceFinding is the findings line of a race.
func raceFinding(sw *Sweep, s *RaceSummary) string {
	saved := fmt.Sprintf("%d games, %.0f%% fewer than the fixed design's %d (the cap on every board)", s.Games, 100*(1-float64(s.Games)/float64(max(1, s.Fixed))), s.Fixed)
	head := fmt.Sprintf("race (%s; every answer right with probability at least %.2f, all %d boards at once: %s, each board's sequence at %.2g)",
		s.Question, 1-FamilyAlpha, s.Boards, stats.MethodRace, sw.bandAlpha())
	if s.Question == stats.RaceFair {
		return fmt.Sprintf("%s: %d inside %.2f-%.2f, %d below, %d above, %d undecided (%d of them stopped before the cap, once they could no longer be settled); %s",
			head, s.Answers["inside"], sw.Cfg.BandLow, sw.Cfg.BandHigh, s.Answers["below"], s.Answers["above"], s.Answers["undecided"], s.Stopped, saved)
	}
	tol := ""
	if sw.Cfg.Tolerance > 0 {
		tol = fmt.Sprintf(" (within %g of the fairest in |White rate - 0.5|)", sw.Cfg.Tolerance)
	}
	if s.Settled {
		return fmt.Sprintf("%s: the fairest board is %s%s; %d eliminated; %s", head, s.Fairest[0], tol, s.Answers["eliminated"], saved)
	}
	list := s.Fairest
	more := ""
	if len(list) > 10 {
		list, more = list[:10], fmt.Sprintf(" and %d more", len(s.Fairest)-10)
	}
	return fmt.Sprintf("%s: the cap was reached with %d boards left, the fairest among them: %s%s; %d eliminated; %s",
		head, len(s.Fairest), strings.Join(list, ", "), more, s.Answers["eliminated"], saved)
}

// raceReport writes a fair race's race.csv (its answers follow from the boards: each stopped
// when its sequence settled) and sums up a race's race.csv into rep; a fairest race's race.csv
// was written by the race (its eliminations depended on the other boards, round by round). It
// returns the files it wrote or read.
func (sw *Sweep) raceReport(dir string, spill *boardSpill, rep *LayoutReport) ([]string, error) {
	if sw.Cfg.Race == "" {
		return nil, nil
	}
	if sw.Cfg.Race == stats.RaceFair {
		err := writeRaceCSV(dir, sw, func(i int) (*gamefile.BoardResult, stats.ArmState, int64, error) {
			b, err := spill.result(i)
			st := sw.fairAnswer(&b)
			at := int64(0)
			if st != stats.Racing {
				at = b.N
			}
			return &b, st, at, err
		})
		if err != nil {
			return nil, err
		}
	}
	s, err := readRaceSummary(dir, sw)
	if err != nil {
		return nil, err
	}
	rep.Race = s
	return []string{"race.csv"}, nil
}
