#include "figure.hpp"

#include "bitmap_font.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace ebisu_examples {

namespace {

const Rgb black{0, 0, 0};
const Rgb white{255, 255, 255};
const Rgb invalid{255, 0, 255};  // NaN / inf cells

// A "black body" ramp: dark blue, red, yellow, white.
Rgb heat_colour(double t) {
  static const double stops[][3] = {{0.05, 0.05, 0.35}, {0.75, 0.10, 0.15}, {1.0, 0.80, 0.10}, {1.0, 1.0, 0.95}};
  t = std::clamp(t, 0.0, 1.0) * 3.0;
  const int i = std::min(static_cast<int>(t), 2);
  const double f = t - i;
  unsigned char c[3];
  for (int k = 0; k < 3; ++k)
    c[k] = static_cast<unsigned char>(std::lround(255.0 * ((1 - f) * stops[i][k] + f * stops[i + 1][k])));
  return {c[0], c[1], c[2]};
}

// Blue - white - red, white at the middle of the range (signed quantities).
Rgb diverging_colour(double t) {
  static const double stops[][3] = {{0.10, 0.20, 0.60}, {1.0, 1.0, 1.0}, {0.65, 0.08, 0.10}};
  t = std::clamp(t, 0.0, 1.0) * 2.0;
  const int i = std::min(static_cast<int>(t), 1);
  const double f = t - i;
  unsigned char c[3];
  for (int k = 0; k < 3; ++k)
    c[k] = static_cast<unsigned char>(std::lround(255.0 * ((1 - f) * stops[i][k] + f * stops[i + 1][k])));
  return {c[0], c[1], c[2]};
}

Rgb grey_colour(double t) {
  const auto v = static_cast<unsigned char>(std::lround(255.0 * std::clamp(t, 0.0, 1.0)));
  return {v, v, v};
}

Rgb colour_of(double value, const Figure& fig) {
  if (!std::isfinite(value)) return invalid;
  const double t = fig.hi > fig.lo ? (value - fig.lo) / (fig.hi - fig.lo) : 0.5;
  return fig.map == ColourMap::grey        ? grey_colour(t)
         : fig.map == ColourMap::diverging ? diverging_colour(t)
                                           : heat_colour(t);
}

struct Image {
  std::vector<double> v;
  int w, h;
};

// Area average down to at most max_side a side, or an integer enlargement
// (nearest cell) up to about min_side.
Image resample(const std::vector<double>& f, int w, int h, int max_side, int min_side) {
  const int longest = std::max(w, h);
  if (longest > max_side) {
    const int k = (longest + max_side - 1) / max_side;
    Image out{{}, (w + k - 1) / k, (h + k - 1) / k};
    out.v.resize(static_cast<size_t>(out.w) * out.h);
    for (int oy = 0; oy < out.h; ++oy) {
      for (int ox = 0; ox < out.w; ++ox) {
        double sum = 0;
        int count = 0;
        for (int y = oy * k; y < std::min(h, (oy + 1) * k); ++y)
          for (int x = ox * k; x < std::min(w, (ox + 1) * k); ++x) {
            sum += f[static_cast<size_t>(y) * w + x];
            ++count;
          }
        out.v[static_cast<size_t>(oy) * out.w + ox] = sum / count;
      }
    }
    return out;
  }
  const int k = std::max(1, std::min(max_side / longest, (min_side + longest - 1) / longest));
  if (k == 1) return {f, w, h};
  Image out{{}, w * k, h * k};
  out.v.resize(static_cast<size_t>(out.w) * out.h);
  for (int y = 0; y < out.h; ++y)
    for (int x = 0; x < out.w; ++x) out.v[static_cast<size_t>(y) * out.w + x] = f[static_cast<size_t>(y / k) * w + x / k];
  return out;
}

std::string tick_label(double v, double step) {
  if (std::fabs(v) < 1e-9 * step) v = 0;  // no "-0"
  char buf[64];
  if (std::fabs(v) >= 1e6 || step < 1e-4) {
    std::snprintf(buf, sizeof buf, "%.3g", v);
  } else {
    const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  }
  return buf;
}

double tick_step(const std::vector<double>& ticks, double lo, double hi) {
  return ticks.size() >= 2 ? ticks[1] - ticks[0] : std::max(std::fabs(hi - lo), 1e-12);
}

int widest(const std::vector<std::string>& labels, int scale) {
  int w = 0;
  for (const auto& l : labels) w = std::max(w, text_width(l, scale));
  return w;
}

std::vector<std::string> labels_of(const std::vector<double>& ticks, double step) {
  std::vector<std::string> out;
  for (double v : ticks) out.push_back(tick_label(v, step));
  return out;
}

// Fraction of the way from a to b (0 when the range is empty).
double fraction(double v, double a, double b) { return b != a ? (v - a) / (b - a) : 0.0; }

void write_rgb_png(const std::string& path, const Canvas& canvas) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!file) throw std::runtime_error("cannot open " + path + " for writing");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("libpng: cannot create write structures");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("libpng: error while writing " + path);
  }
  png_init_io(png, file.get());
  png_set_IHDR(png, info, canvas.width(), canvas.height(), 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const unsigned char* data = canvas.pixels().data();
  for (int y = 0; y < canvas.height(); ++y)
    png_write_row(png, const_cast<png_bytep>(data + 3 * static_cast<size_t>(y) * canvas.width()));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}

}  // namespace

std::string format_seconds(double seconds) {
  const double a = std::fabs(seconds);
  const char* unit = "s";
  double v = seconds;
  if (a > 0 && a < 1e-3) {
    v = seconds * 1e6;
    unit = "\xC2\xB5s";
  } else if (a > 0 && a < 1.0) {
    v = seconds * 1e3;
    unit = "ms";
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g %s", v, unit);
  return buf;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (lo > hi) std::swap(lo, hi);
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {lo};
  const double raw = (hi - lo) / std::max(target, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double step = (norm < 1.5 ? 1.0 : norm < 3.5 ? 2.0 : norm < 7.5 ? 5.0 : 10.0) * magnitude;
  std::vector<double> ticks;
  const double first = std::ceil(lo / step - 1e-9);
  for (int k = 0;; ++k) {
    const double v = (first + k) * step;
    if (v > hi + 1e-9 * step) break;
    ticks.push_back(v);
  }
  return ticks;
}

void write_png(const std::string& path, const std::vector<double>& field, int width, int height, const Figure& fig) {
  if (width < 1 || height < 1 || field.size() != static_cast<size_t>(width) * height) {
    throw std::invalid_argument("write_png: the field has " + std::to_string(field.size()) + " values, not " +
                                std::to_string(width) + " x " + std::to_string(height));
  }
  const Image img = resample(field, width, height, std::max(fig.max_side, 1), fig.min_side);
  const int pw = img.w, ph = img.h;

  // Sizes, all scaled with the font.
  const int s = std::max(pw, ph) >= 800 ? 3 : 2;
  const int gap = 4 * s, tick = 3 * s, lh = line_height * s, line = s >= 3 ? 2 : 1;
  const int half_ascent = glyph_ascent * s / 2;
  const int bar_w = std::max(8 * s, pw / 25);

  const auto xt = nice_ticks(fig.x.min, fig.x.max);
  const auto yt = nice_ticks(fig.y.min, fig.y.max);
  const auto ct = nice_ticks(fig.lo, fig.hi);
  const auto xl = labels_of(xt, tick_step(xt, fig.x.min, fig.x.max));
  const auto yl = labels_of(yt, tick_step(yt, fig.y.min, fig.y.max));
  const auto cl = labels_of(ct, tick_step(ct, fig.lo, fig.hi));

  const int left = gap + lh + gap + widest(yl, s) + gap / 2 + tick + line;
  // Rotated labels longer than the plot is high get room above and below it.
  const int rotated = std::max(text_width(fig.y.label, s), text_width(fig.colour_label, s));
  const int top = std::max(gap + lh + gap + half_ascent, gap + rotated / 2 - ph / 2);
  const int bottom = std::max(line + tick + gap / 2 + lh + gap / 2 + lh + gap, gap + rotated / 2 - (ph - ph / 2));
  const int bar_x = left + pw + line + 3 * gap;  // the colour bar's left column
  const int right = line + 3 * gap + bar_w + line + tick + gap / 2 + widest(cl, s) + gap + lh + gap;
  const int canvas_w = std::max(left + pw + right, text_width(fig.title, s) + 2 * gap);
  Canvas canvas(canvas_w, top + ph + bottom, white);

  // The field; the frame around it lies outside its pixels.
  for (int py = 0; py < ph; ++py) {
    const int row = fig.y_up ? ph - 1 - py : py;
    for (int px = 0; px < pw; ++px) canvas.set(left + px, top + py, colour_of(img.v[static_cast<size_t>(row) * pw + px], fig));
  }
  auto frame = [&](int x, int y, int w, int h) {
    canvas.fill(x - line, y - line, w + 2 * line, line, black);
    canvas.fill(x - line, y + h, w + 2 * line, line, black);
    canvas.fill(x - line, y, line, h, black);
    canvas.fill(x + w, y, line, h, black);
  };
  frame(left, top, pw, ph);

  // x axis: ticks below the plot, their values, the label.
  for (size_t k = 0; k < xt.size(); ++k) {
    const int pos = left - line + static_cast<int>(std::lround(fraction(xt[k], fig.x.min, fig.x.max) * (pw + line)));
    canvas.fill(pos, top + ph + line, line, tick, black);
    draw_text(canvas, pos - text_width(xl[k], s) / 2, top + ph + line + tick + gap / 2, xl[k], s, black);
  }
  draw_text(canvas, left + pw / 2 - text_width(fig.x.label, s) / 2, top + ph + line + tick + gap / 2 + lh + gap / 2,
            fig.x.label, s, black);

  // y axis: ticks left of the plot, right-aligned values, the rotated label.
  for (size_t k = 0; k < yt.size(); ++k) {
    const int off = static_cast<int>(std::lround(fraction(yt[k], fig.y.min, fig.y.max) * (ph + line)));
    const int pos = fig.y_up ? top + ph - off : top - line + off;
    canvas.fill(left - line - tick, pos, tick, line, black);
    draw_text(canvas, left - line - tick - gap / 2 - text_width(yl[k], s), pos - half_ascent, yl[k], s, black);
  }
  draw_text_up(canvas, gap, top + ph / 2 - text_width(fig.y.label, s) / 2, fig.y.label, s, black);

  // Colour bar: lo at the bottom, hi at the top, ticks and values on its right, then its label.
  for (int py = 0; py < ph; ++py) {
    const double t = 1.0 - (py + 0.5) / ph;
    canvas.fill(bar_x, top + py, bar_w, 1, colour_of(fig.lo + t * (fig.hi - fig.lo), fig));
  }
  frame(bar_x, top, bar_w, ph);
  const int bar_right = bar_x + bar_w + line;
  for (size_t k = 0; k < ct.size(); ++k) {
    const int pos = top + ph - static_cast<int>(std::lround(fraction(ct[k], fig.lo, fig.hi) * (ph + line)));
    canvas.fill(bar_right, pos, tick, line, black);
    draw_text(canvas, bar_right + tick + gap / 2, pos - half_ascent, cl[k], s, black);
  }
  draw_text_up(canvas, bar_right + tick + gap / 2 + widest(cl, s) + gap,
               top + ph / 2 - text_width(fig.colour_label, s) / 2, fig.colour_label, s, black);

  // Title, centred over the plot where it fits.
  const int tw = text_width(fig.title, s);
  draw_text(canvas, std::clamp(left + pw / 2 - tw / 2, gap, canvas_w - gap - tw), top - half_ascent - gap - lh, fig.title, s, black);

  write_rgb_png(path, canvas);
}

}  // namespace ebisu_examples
