# Request execution tests (request building, authentication, result shaping, the HTTP
# executor) against hand-written tool specs and a fake outbound client: no catalogue, no
# network. Included from test/toolkits/CMakeLists.txt.
#
# The executor sources live in toolgate_toolkits, which also carries the generated catalogue.
# These tests need none of it: they link `toolgate_toolkits_exec` when toolkits/ provides it
# as an OBJECT library (as it does for the catalogue engine), else they compile the sources
# into an object library of their own.
if(TARGET toolgate_toolkits_exec)
  set(toolgate_executor_lib toolgate_toolkits_exec)
else()
  set(toolgate_executor_sources
    request_builder.cpp request_body.cpp base_url.cpp auth.cpp credentials.cpp
    result_shaper.cpp http_executor.cpp)
  list(TRANSFORM toolgate_executor_sources PREPEND ${PROJECT_SOURCE_DIR}/toolkits/)
  add_library(toolgate_executor_for_tests OBJECT ${toolgate_executor_sources})
  target_include_directories(toolgate_executor_for_tests PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(toolgate_executor_for_tests PUBLIC toolgate_outbound_api Boost::json
    Boost::url)
  toolgate_warnings(toolgate_executor_for_tests)
  set(toolgate_executor_lib toolgate_executor_for_tests)
endif()

foreach(name request_builder auth result_shaper http_executor)
  toolgate_add_test(test_${name}
    ${CMAKE_CURRENT_LIST_DIR}/test_${name}.cpp
    LIBS ${toolgate_executor_lib}
    LABELS toolkits)
endforeach()
