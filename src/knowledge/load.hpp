#pragma once
// The data files (src/knowledge/data/*.yaml) into validated rows. The files are compiled into
// the binary (embedded_files(), generated at build time); a file that does not load is a
// defect the unit tests catch, so rows() throws rather than judge with part of the table.

#include "knowledge/row.hpp"
#include "util/expected.hpp"

#include <string_view>
#include <vector>

namespace icheck::knowledge {

struct DataFile {
  std::string_view name;  // "trouble_core.yaml"
  std::string_view text;
};

// One file's rows; the first problem as "trouble_core.yaml: row ucx-old: unknown operator 'eq'".
Expected<std::vector<Row>> load_file(const DataFile& file);
// Every file's rows, ids unique over all of them.
Expected<std::vector<Row>> load_files(const std::vector<DataFile>& files);

// Generated from src/knowledge/data/*.yaml (cmake/knowledge_data.cmake), sorted by name.
const std::vector<DataFile>& embedded_files();

// The embedded rows, loaded once (std::runtime_error when they do not load).
const std::vector<Row>& rows();
const std::vector<Row>& trouble_rows();
const std::vector<Row>& signature_rows();

}  // namespace icheck::knowledge
