"""A club's seasons: dates and labels (dates) and the honours' rules (summary), pure Python;
the stored events and results a season reads (reading). Its page and the season_summary
command are the members' (members/seasons.py).
"""
