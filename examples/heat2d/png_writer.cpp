#include "png_writer.hpp"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace {

// A "black body" ramp: dark blue, red, yellow, white.
void colour(double t, png_byte* rgb) {
  static const double stops[][3] = {{0.05, 0.05, 0.35}, {0.75, 0.10, 0.15}, {1.0, 0.80, 0.10}, {1.0, 1.0, 0.95}};
  t = std::clamp(t, 0.0, 1.0) * 3.0;
  const int i = std::min(static_cast<int>(t), 2);
  const double f = t - i;
  for (int c = 0; c < 3; ++c) rgb[c] = static_cast<png_byte>(255.0 * ((1 - f) * stops[i][c] + f * stops[i + 1][c]));
}

}  // namespace

void write_heat_png(const std::string& path, const std::vector<double>& field, int width, int height, double lo,
                    double hi) {
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
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<png_byte> row(3 * static_cast<size_t>(width));
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) colour((field[static_cast<size_t>(y) * width + x] - lo) / (hi - lo), &row[3 * x]);
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}
