// Package progress reports the progress of long jobs on a terminal: done/total, rate and ETA.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Meter prints "label: done/total (pct) rate/s ETA" at most every interval; safe for concurrent use.
type Meter struct {
	mu       sync.Mutex
	w        io.Writer
	label    string
	unit     string
	total    int
	done     int
	start    time.Time
	last     time.Time
	interval time.Duration
}

// New starts a meter writing to w (typically os.Stderr); total may be 0 when unknown.
func New(w io.Writer, label, unit string, total int) *Meter {
	now := time.Now()
	return &Meter{w: w, label: label, unit: unit, total: total, start: now, last: now, interval: time.Second}
}

// SetTotal sets the total once it is known: a job that counts its work beside doing it (a collection
// counted while it is searched) starts with 0.
func (m *Meter) SetTotal(total int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total = total
}

// Add records n more units done and prints a line if the interval has passed.
func (m *Meter) Add(n int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done += n
	if now := time.Now(); now.Sub(m.last) >= m.interval {
		m.last = now
		m.print(now)
	}
}

// Done prints the final line.
func (m *Meter) Done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.print(time.Now())
}

func (m *Meter) print(now time.Time) {
	elapsed := now.Sub(m.start)
	rate := float64(m.done) / max(elapsed.Seconds(), 1e-9)
	line := fmt.Sprintf("%s: %d", m.label, m.done)
	if m.total > 0 {
		line += fmt.Sprintf("/%d %s (%.0f%%)", m.total, m.unit, 100*float64(m.done)/float64(m.total))
		if rate > 0 && m.done < m.total {
			eta := time.Duration(float64(m.total-m.done) / rate * float64(time.Second))
			line += fmt.Sprintf(", ETA %s", eta.Round(time.Second))
		}
	} else {
		line += " " + m.unit
	}
	line += fmt.Sprintf(", %.1f %s/s, %s elapsed", rate, m.unit, elapsed.Round(time.Second))
	fmt.Fprintln(m.w, line)
}
