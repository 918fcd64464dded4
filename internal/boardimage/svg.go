package boardimage

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// WriteSVG writes b as an SVG document of side px: the same layout as the PNG, in vector shapes
// (each stone one circle of class "stone", heat discs class "heat", territory squares class
// "territory", search candidates class "search", the common fate graph's lines and vertices class
// "cfg …"), so slides and print scale it without blur. Text names the Go font, falling back on
// the reader's sans-serif.
func WriteSVG(w io.Writer, b *Board, px int) error {
	if err := b.Validate(); err != nil {
		return err
	}
	if err := checkSize(px); err != nil {
		return err
	}
	_, shapes := scene(b, px)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Go, 'DejaVu Sans', Arial, sans-serif" font-weight="bold">
<defs>
<radialGradient id="slate" cx="0.31" cy="0.29" r="0.75"><stop offset="0" stop-color="#5a5a5e"/><stop offset="0.45" stop-color="#2a2a2e"/><stop offset="1" stop-color="#18181b"/></radialGradient>
<radialGradient id="shell" cx="0.31" cy="0.29" r="0.9"><stop offset="0" stop-color="#fcfbf7"/><stop offset="0.7" stop-color="#e4e2dc"/><stop offset="1" stop-color="#bcbab5"/></radialGradient>
<linearGradient id="heatscale">%s</linearGradient>
<linearGradient id="woodgrain" x1="0" y1="0" x2="0.15" y2="1">%s</linearGradient>
</defs>
`, px, px, px, px, heatStops(b.Palette), woodStops())
	for i := range shapes {
		writeShape(bw, &shapes[i])
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// heatStops are the stops of the legend's gradient in palette pal.
func heatStops(pal Palette) string {
	var sb strings.Builder
	for i := 0; i <= 16; i++ {
		t := float64(i) / 16
		fmt.Fprintf(&sb, `<stop offset="%.4g" stop-color="%s"/>`, t, hex(rgb(PaletteAt(t, pal))))
	}
	return sb.String()
}

// woodStops are a few bands of the wood tone, a vector hint of the raster's grain.
func woodStops() string {
	var sb strings.Builder
	for i, k := range []float64{1.01, 0.97, 1.02, 0.96, 1.0, 0.975, 1.015} {
		c := rgb{clamp8(float64(woodColor[0]) * k), clamp8(float64(woodColor[1]) * k), clamp8(float64(woodColor[2]) * k)}
		fmt.Fprintf(&sb, `<stop offset="%.3g" stop-color="%s"/>`, float64(i)/6, hex(c))
	}
	return sb.String()
}

func hex(c rgb) string { return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2]) }

// num writes a coordinate with two decimals at most, trimmed.
func num(v float64) string {
	s := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func opacity(a float64) string {
	if a >= 1 {
		return ""
	}
	return fmt.Sprintf(` opacity="%.3g"`, a)
}

func writeShape(w *bufio.Writer, s *shape) {
	switch s.kind {
	case kWood:
		fmt.Fprintf(w, `<rect class="wood" x="0" y="0" width="%s" height="%s" fill="url(#woodgrain)"/>`+"\n", num(s.w), num(s.h))
	case kRect:
		stroke := ""
		if s.lineAlpha > 0 {
			stroke = fmt.Sprintf(` stroke="%s" stroke-opacity="%.3g" stroke-width="%s"`, hex(s.line), s.lineAlpha, num(s.stroke))
		}
		fmt.Fprintf(w, `<rect class="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"%s%s/>`+"\n",
			s.class, num(s.x), num(s.y), num(s.w), num(s.h), hex(s.fill), opacity(s.alpha), stroke)
	case kDisc:
		fmt.Fprintf(w, `<circle class="%s" cx="%s" cy="%s" r="%s" fill="%s"%s/>`+"\n",
			s.class, num(s.x), num(s.y), num(s.r), hex(s.fill), opacity(s.alpha))
	case kRing:
		fmt.Fprintf(w, `<circle class="%s" cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="%s"%s/>`+"\n",
			s.class, num(s.x), num(s.y), num(s.r), hex(s.line), num(s.stroke), opacity(s.alpha))
	case kStone:
		fill, stroke := "url(#slate)", ""
		if s.stone == White {
			fill = "url(#shell)"
		}
		if s.flat {
			fill = hex(blackStone)
			if s.stone == White {
				fill, stroke = "#ffffff", fmt.Sprintf(` stroke="%s" stroke-width="%s"`, hex(inkDark), num(max(1, s.r*0.06)))
			}
		}
		fmt.Fprintf(w, `<circle class="%s" cx="%s" cy="%s" r="%s" fill="%s"%s/>`+"\n",
			s.class, num(s.x), num(s.y), num(s.r), fill, stroke)
	case kText:
		anchor := map[anchor]string{aMiddle: "middle", aStart: "start", aEnd: "end"}[s.anchor]
		fmt.Fprintf(w, `<text class="%s" x="%s" y="%s" font-size="%s" text-anchor="%s" fill="%s"%s>`,
			s.class, num(s.x), num(s.y+capHeight*s.h/2), num(s.h), anchor, hex(s.fill), opacity(s.alpha))
		xml.EscapeText(w, []byte(s.text))
		w.WriteString("</text>\n")
	case kLine:
		fmt.Fprintf(w, `<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" stroke-linecap="round"%s/>`+"\n",
			s.class, num(s.x), num(s.y), num(s.x2), num(s.y2), hex(s.line), num(s.stroke), opacity(s.alpha))
	case kBar:
		fmt.Fprintf(w, `<rect class="%s" x="%s" y="%s" width="%s" height="%s" fill="url(#heatscale)"/>`+"\n",
			s.class, num(s.x), num(s.y), num(s.w), num(s.h))
	}
}
