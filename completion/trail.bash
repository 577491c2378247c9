# completion/trail.bash - bash completion for trail.  The commands and
# their options come from the binary itself ('trail help --commands',
# 'trail help --options CMD', both printed from the option tables; option
# values from 'trail help --values CMD OPT', a command's subcommands -
# history's - from 'trail help --subcommands CMD'), so the
# completion always matches the trail being run.  Installed by 'make
# install' as share/bash-completion/completions/trail.
_trail()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local trail=${COMP_WORDS[0]} cmd= i line
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	COMPREPLY=()
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "-q --quiet -v --verbose --version -h --help" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$trail" help --commands 2>/dev/null) help" -- "$cur"))
		fi
		return 0
	fi
	if [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "$("$trail" help --commands 2>/dev/null)" -- "$cur"))
		return 0
	fi
	# the word right after a command with subcommands (trail history det)
	if ((COMP_CWORD == i + 1)) && [[ $cur != -* ]]; then
		local subs
		subs=$("$trail" help --subcommands "$cmd" 2>/dev/null)
		if [[ -n $subs ]]; then
			COMPREPLY=($(compgen -W "$subs" -- "$cur"))
			return 0
		fi
	fi
	local options
	options=$("$trail" help --options "$cmd" 2>/dev/null)
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$options" | cut -d' ' -f1)" -- "$cur"))
		return 0
	fi
	# after an option that takes a value: its values when the binary lists
	# them ('trail help --values CMD OPT'), files only when the value is one
	while read -r line; do
		if [[ ${line%% *} == "$prev" && $line == *' '* ]]; then
			local values
			values=$("$trail" help --values "$cmd" "$prev" 2>/dev/null)
			if [[ -n $values ]]; then
				COMPREPLY=($(compgen -W "$values" -- "$cur"))
				return 0
			fi
			case ${line#* } in
			*FILE* | *PATH* | *DIR* | *WHERE*) COMPREPLY=($(compgen -f -- "$cur")) ;;
			esac
			return 0
		fi
	done <<<"$options"
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}
complete -o filenames -F _trail trail
