# Writes the shell completion scripts the built binary prints (`KKADM completion SHELL`) into OUT:
# kkadm.bash, _kkadm (zsh) and kkadm.fish. Run with cmake -P. A failing or silent command fails the
# build rather than installing an empty script.
file(MAKE_DIRECTORY ${OUT})
foreach(shell_file IN ITEMS "bash;kkadm.bash" "zsh;_kkadm" "fish;kkadm.fish")
  list(GET shell_file 0 shell)
  list(GET shell_file 1 file)
  execute_process(COMMAND ${KKADM} completion ${shell} OUTPUT_FILE ${OUT}/${file}.tmp
                  RESULT_VARIABLE result)
  file(SIZE ${OUT}/${file}.tmp size)
  if(NOT result EQUAL 0 OR size EQUAL 0)
    file(REMOVE ${OUT}/${file}.tmp)
    message(FATAL_ERROR "`${KKADM} completion ${shell}` failed (${result}) or printed nothing")
  endif()
  file(RENAME ${OUT}/${file}.tmp ${OUT}/${file})
endforeach()
