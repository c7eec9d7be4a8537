#ifndef EBISU_EXAMPLES_BITMAP_FONT_HPP
#define EBISU_EXAMPLES_BITMAP_FONT_HPP

// An RGB canvas and a tiny built-in 5x7 bitmap font (ASCII letters, digits,
// common punctuation, plus the UTF-8 characters degree sign and micro sign),
// enough to label figures without a font library.

#include <string>
#include <vector>

namespace ebisu_examples {

struct Rgb {
  unsigned char r, g, b;
};

/// A width x height RGB image, row 0 at the top.
class Canvas {
 public:
  Canvas(int width, int height, Rgb background);
  int width() const { return m_width; }
  int height() const { return m_height; }
  /// Sets one pixel; pixels outside the canvas are ignored.
  void set(int x, int y, Rgb c);
  /// Fills the rectangle [x, x + w) x [y, y + h), clipped to the canvas.
  void fill(int x, int y, int w, int h, Rgb c);
  /// Interleaved RGB bytes, row by row.
  const std::vector<unsigned char>& pixels() const { return m_pixels; }

 private:
  int m_width, m_height;
  std::vector<unsigned char> m_pixels;
};

/// Glyph cell of the font at scale 1: 5 columns plus 1 of spacing, 7 rows
/// above the baseline, 2 below it (descenders) and 1 of line spacing.
constexpr int glyph_advance = 6;
constexpr int glyph_ascent = 7;
constexpr int line_height = 10;

/// Width in pixels of `text` (UTF-8) at `scale`, without the trailing spacing column.
int text_width(const std::string& text, int scale);

/// Horizontal text whose cell box has its top-left corner at (x, y).
void draw_text(Canvas& canvas, int x, int y, const std::string& text, int scale, Rgb colour);

/// Text rotated by 90 degrees counter-clockwise (read from bottom to top), as
/// for a vertical axis label; its box (line_height * scale wide,
/// text_width high) has its top-left corner at (x, y).
void draw_text_up(Canvas& canvas, int x, int y, const std::string& text, int scale, Rgb colour);

}  // namespace ebisu_examples

#endif
