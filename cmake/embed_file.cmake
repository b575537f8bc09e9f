# cmake -DIN=file.yaml -DOUT=file.cpp -DID=c_identifier -P embed_file.cmake
# Writes a .cpp whose char array holds IN's bytes (and a NUL), for knowledge::embedded_files().
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT}.tmp "// generated from ${IN} by cmake/embed_file.cmake\n#include <cstddef>\n"
  "namespace icheck::knowledge {\n"
  "extern const char kData_${ID}[];\nextern const std::size_t kSize_${ID};\n"
  "const char kData_${ID}[] = {\n${bytes}0x00};\n"
  "const std::size_t kSize_${ID} = sizeof(kData_${ID}) - 1;\n}\n")
file(RENAME ${OUT}.tmp ${OUT})
