# zsh complete.zsh FOLDER LINE: starts an interactive zsh whose fpath begins with FOLDER, types
# LINE, presses Tab, and prints the line as zsh completed it, after "COMPLETED: ".
# The markers are typed with quotes inside them (READ''Y), so only zsh's output, never the
# echo of what was typed, matches them.
zmodload zsh/zpty
zpty shell zsh -f -i
zpty -w shell "PS1='> '; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; bindkey -e; print READ''Y"
zpty -r shell output '*READY*'
zpty -n -w shell "$2"$'\t'
# Completion has run when zsh has drawn its result and gone quiet.
quiet=0
while (( quiet < 5 )); do
    if zpty -r -t shell chunk; then quiet=0; else (( quiet++ )); sleep 0.2; fi
done
# Ctrl-A, then a command in front of the completed words: running it prints them.
zpty -n -w shell $'\x01print -r -- COMPLE\'\'TED: \r'
output=
for i in {1..100}; do
    while zpty -r -t shell chunk; do output+=$chunk; done
    [[ $output == *COMPLETED:*$'\n'* ]] && break
    sleep 0.1
done
zpty -d shell
print -r -- "$output"
