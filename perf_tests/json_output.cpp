// The JSON file: everything needed to reproduce and compare a run.

#include "output.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace ebisu_bench {

namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out + "\"";
}

std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

std::string boolean(bool b) { return b ? "true" : "false"; }

template <class T, class F>
std::string array(const std::vector<T>& v, F&& f) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + f(v[i]);
  return out + "]";
}

// A tiny writer of "key": value lines with commas handled.
class Object {
 public:
  Object(std::ostream& out, int indent) : m_out(out), m_indent(indent) { m_out << "{"; }
  void raw(const std::string& key, const std::string& value) {
    m_out << (m_first ? "\n" : ",\n") << std::string(m_indent + 2, ' ') << quote(key) << ": " << value;
    m_first = false;
  }
  void str(const std::string& key, const std::string& value) { raw(key, quote(value)); }
  void number(const std::string& key, double value) { raw(key, num(value)); }
  void close() { m_out << "\n" << std::string(m_indent, ' ') << "}"; }

 private:
  std::ostream& m_out;
  int m_indent;
  bool m_first = true;
};

std::string variant_json(const VariantResult& r, int indent) {
  std::ostringstream s;
  Object o(s, indent);
  o.str("name", r.name);
  o.str("family", r.family);
  o.str("status", r.status);
  o.str("note", r.note);
  {
    std::ostringstream p;
    Object po(p, indent + 2);
    for (const auto& param : r.params) {
      if (param.is_number) {
        po.raw(param.key, num(std::strtod(param.value.c_str(), nullptr)));
      } else {
        po.str(param.key, param.value);
      }
    }
    po.close();
    o.raw("parameters", p.str());
  }
  o.raw("times_s", array(r.times_s, num));
  if (!r.sm_clock_mhz.empty()) {
    o.raw("sm_clock_mhz", array(r.sm_clock_mhz, num));
    o.raw("power_w", array(r.power_w, num));
    o.raw("power_capped_fraction", array(r.power_capped_fraction, num));
    o.number("sm_clock_mhz_median", r.sm_clock_mhz_median);
  }
  o.number("median_s", r.median_s);
  o.number("best_s", r.best_s);
  o.number("gcells_per_s_median", r.gcells_median);
  o.number("gcells_per_s_best", r.gcells_best);
  o.number("fraction_of_bound", r.fraction_of_bound);
  o.number("speedup_vs_best_plain", r.speedup);
  o.raw("check", [&] {
    std::ostringstream c;
    Object co(c, indent + 2);
    co.raw("max_rel_diff", r.max_rel_diff >= 0 ? num(r.max_rel_diff) : "null");
    co.raw("max_rel_diff_vs_first_plain", r.max_rel_diff_first >= 0 ? num(r.max_rel_diff_first) : "null");
    co.number("tolerance", r.tolerance);
    co.str("against", r.checked_against);
    co.raw("passed", r.status == "FAILED" ? "false" : r.max_rel_diff >= 0 ? "true" : "null");
    co.close();
    return c.str();
  }());
  o.close();
  return s.str();
}

}  // namespace

bool write_json(const std::string& path, const RunInfo& info, const std::vector<CaseResult>& cases) {
  std::ostringstream s;
  Object top(s, 0);
  top.str("schema", "ebisu_bench/1");
  top.str("date_utc", info.date_utc);
  top.str("host", info.host);
  top.str("command_line", info.command_line);
  {
    std::ostringstream d;
    Object o(d, 2);
    o.str("name", info.device_name);
    o.str("kind", info.device_kind);
    o.number("memory_bytes", info.device_memory_bytes);
    o.close();
    top.raw("device", d.str());
  }
  top.str("kokkos_version", info.kokkos_version);
  top.str("execution_space", info.execution_space);
  top.str("memory_space", info.memory_space);
  top.number("concurrency", info.concurrency);
  top.str("layout", info.layout);
  top.str("ebisu_kokkos_version", info.ebisu_version);
  top.str("ebisu_kokkos_configuration", info.ebisu_configuration);
  top.raw("kokkoskernels", boolean(info.kokkoskernels));
  top.str("precision", info.precision);
  top.number("scalar_bytes", info.scalar_bytes);
  top.number("steps", info.steps);
  top.number("reps", info.reps);
  top.str("gpu_telemetry", info.gpu_telemetry);
  top.str("gpu_telemetry_note", info.gpu_telemetry_note);
  {
    std::ostringstream b;
    Object o(b, 2);
    o.str("method", "Kokkos::deep_copy between two Views of the default memory space, (read + write) bytes / time");
    o.number("bytes_per_buffer", info.copy_bytes);
    o.number("copy_bandwidth_gbs_best", info.copy_bw_best_gbs);
    o.number("copy_bandwidth_gbs_median", info.copy_bw_median_gbs);
    o.number("per_step_bound_gcells_per_s", info.bound_gcells);
    o.str("per_step_bound_formula", "copy_bandwidth_gbs_best / (2 * scalar_bytes)");
    o.close();
    top.raw("bandwidth", b.str());
  }
  top.raw("all_checks_passed", boolean(info.all_checks_passed));
  {
    std::string list = "[";
    for (size_t i = 0; i < cases.size(); ++i) {
      const auto& c = cases[i];
      std::ostringstream cs;
      Object o(cs, 4);
      o.str("stencil", c.stencil);
      o.number("rank", c.rank);
      o.number("radius", c.radius);
      o.number("points", c.points);
      o.number("flops_per_cell", c.flops_per_cell);
      o.raw("domain_zyx", array(c.domain, [](long v) { return std::to_string(v); }));
      o.raw("view_extents", array(c.view_extents, [](long v) { return std::to_string(v); }));
      o.str("layout", c.layout);
      o.number("cells", static_cast<double>(c.cells));
      o.number("interior_cells", static_cast<double>(c.interior_cells));
      o.number("steps", c.steps);
      o.number("reps", c.reps);
      o.str("precision", c.precision);
      o.str("best_plain", c.best_plain);
      o.raw("host_oracle_max_rel_diff", c.oracle_max_rel_diff >= 0 ? num(c.oracle_max_rel_diff) : "null");
      o.number("bound_gcells_per_s", info.bound_gcells);
      std::string vs = "[";
      for (size_t k = 0; k < c.variants.size(); ++k) {
        vs += (k ? ",\n" : "\n") + std::string(8, ' ') + variant_json(c.variants[k], 8);
      }
      o.raw("variants", vs + "\n      ]");
      o.close();
      list += (i ? ",\n    " : "\n    ") + cs.str();
    }
    top.raw("cases", list + "\n  ]");
  }
  top.close();
  s << "\n";
  std::ofstream out(path);
  if (!out) return false;
  out << s.str();
  return static_cast<bool>(out);
}

}  // namespace ebisu_bench
