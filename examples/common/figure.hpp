#ifndef EBISU_EXAMPLES_FIGURE_HPP
#define EBISU_EXAMPLES_FIGURE_HPP

// A minimal figure writer for the examples: a 2-D field as a colour-mapped
// PNG (libpng) with a title, x and y axes in physical units with ticks, and a
// vertical colour bar with its own ticks and label. Text comes from a small
// built-in bitmap font (bitmap_font.hpp); UTF-8 degree and micro signs work.
//
//   ebisu_examples::Figure fig;
//   fig.title = "t = 1.234 s";
//   fig.x = {"x (mm)", 0.0, 15.0};
//   fig.y = {"y (mm)", 0.0, 15.0};
//   fig.colour_label = std::string("temperature (") + ebisu_examples::degrees_celsius + ")";
//   fig.lo = 20; fig.hi = 100;
//   ebisu_examples::write_png("out.png", field, width, height, fig);

#include <string>
#include <vector>

namespace ebisu_examples {

/// The unit "degree Celsius" in UTF-8, for labels.
constexpr const char* degrees_celsius = "\xC2\xB0" "C";

enum class ColourMap {
  heat,  ///< dark blue - red - yellow - white (temperatures)
  grey,      ///< black - white (images)
  diverging  ///< blue - white - red (signed quantities: white at the middle of the range)
};

/// An axis of the plot: its label and the physical coordinates of the field's
/// first and last edges along it.
struct Axis {
  std::string label;
  double min = 0, max = 1;
};

struct Figure {
  std::string title;         ///< the line above the plot, e.g. "t = 1.234 s"
  Axis x;                    ///< along the field's columns (its fast index)
  Axis y;                    ///< along the field's rows
  std::string colour_label;  ///< quantity and unit of the colour bar, e.g. "temperature (\xC2\xB0C)"
  double lo = 0, hi = 1;     ///< the colour range; values outside it take the end colours
  ColourMap map = ColourMap::heat;
  /// true: row 0 of the field is the lowest y and is drawn at the bottom (a
  /// physical plot); false: row 0 is drawn at the top and y grows downwards (an image).
  bool y_up = true;
  int max_side = 1000;  ///< a larger field is area-averaged down to at most this many pixels a side
  int min_side = 400;   ///< a smaller one is enlarged by an integer factor (nearest cell) to about this
};

/// Writes `field` (row-major: height rows of width values) as an RGB PNG
/// figure. Throws std::invalid_argument on a bad size, std::runtime_error when
/// the file cannot be written.
void write_png(const std::string& path, const std::vector<double>& field, int width, int height, const Figure& fig);

/// A duration for a title: "1.234 s", "12.5 ms", "250 \xC2\xB5s" (4 significant digits).
std::string format_seconds(double seconds);

/// "Nice" tick values (1, 2 or 5 times a power of ten apart) within [lo, hi], about `target` of them.
std::vector<double> nice_ticks(double lo, double hi, int target = 5);

}  // namespace ebisu_examples

#endif
