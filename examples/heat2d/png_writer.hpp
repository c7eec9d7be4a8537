#ifndef EBISU_EXAMPLES_PNG_WRITER_HPP
#define EBISU_EXAMPLES_PNG_WRITER_HPP

#include <string>
#include <vector>

/// Writes a field (row-major, width x height) as an 8-bit RGB PNG through
/// libpng, colour-mapped between lo and hi (blue - red - yellow - white).
/// Throws std::runtime_error on failure.
void write_heat_png(const std::string& path, const std::vector<double>& field, int width, int height, double lo,
                    double hi);

#endif
